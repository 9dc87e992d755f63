import { unitAndIntegration } from '../../vitest.shared.ts';

export default unitAndIntegration([]);
