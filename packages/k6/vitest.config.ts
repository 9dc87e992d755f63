import { unitAndIntegration } from '../../vitest.shared.ts';

// These run the built bin/k6 against local servers (sandbox.test.ts: inside bwrap and cgroups).
export default unitAndIntegration([
  'src/run-k6*.test.ts',
  'src/sandbox.test.ts',
  'src/sandbox-own-services.test.ts',
]);
