import { unitAndIntegration } from '../../vitest.shared.ts';

// No integration tests here: the CLI's tests against a running stack are vitest.e2e.config.ts.
export default unitAndIntegration([]);
