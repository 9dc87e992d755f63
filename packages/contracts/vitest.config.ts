import { unitAndIntegration } from '../../vitest.shared.ts';

// Pure rules and schemas: every test here is a unit test.
export default unitAndIntegration([]);
