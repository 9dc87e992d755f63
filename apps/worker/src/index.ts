import { loadEnv } from './env';
import { startWorkerApp } from './worker-app';

// Process entry: configuration and signals only.
const app = await startWorkerApp(loadEnv());
let signals = 0;
const stop = (signal: string) => {
  signals++;
  if (signals > 1) {
    app.log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
