import { unitAndIntegration } from '../../vitest.shared.ts';

export default unitAndIntegration(['src/change-points.otava.test.ts']);
