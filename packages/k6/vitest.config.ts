import { unitAndIntegration } from '../../vitest.shared.ts';

// These run the built bin/k6 against local servers (sandbox.test.ts: inside bwrap and cgroups);
// the accuracy test compares the output with k6's own summary and raw samples, alone.
export default unitAndIntegration(
  ['src/run-k6*.test.ts', 'src/sandbox.test.ts', 'src/sandbox-own-services.test.ts'],
  undefined,
  ['src/run-k6.accuracy.test.ts'],
);
