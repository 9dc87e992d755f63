import { unitAndIntegration } from '../../vitest.shared.ts';

export default unitAndIntegration([
  'src/run-queue.test.ts',
  'src/pubsub-hub.test.ts',
  'src/connections.test.ts',
]);
