export { producerConnection, workerConnection } from './connections';
export { createRunQueue, enqueueRuns, RUN_JOB_OPTIONS } from './run-queue';
export {
  publishRunEvent,
  subscribeRunEvents,
  listenRunEvents,
  decodeRunEvent,
  publishCancel,
  RunControlSchema,
  type RunControl,
} from './run-events';
export { createStateLog, watchConnections, type StateLog, type StateLogger } from './state-log';
export { createPubSubHub, type PubSubHub, type Unlisten } from './pubsub-hub';
