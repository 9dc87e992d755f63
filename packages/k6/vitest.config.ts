import { unitAndIntegration } from '../../vitest.shared.ts';

// These run the built bin/k6 against local servers.
export default unitAndIntegration(['src/run-k6*.test.ts']);
