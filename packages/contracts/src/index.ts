// What the parts of PoolBench agree on across a process or storage boundary: errors, run
// statuses, queue jobs and live events, the lab environment a run records, run order. The address
// rules, links and the installation's own services are subpaths (`./net`, `./links`,
// `./own-services`: Node only).
export * from './errors';
export * from './run-statuses';
export * from './run-order';
export * from './environment/lab-environment-schema';
export * from './queue/queue-names';
export * from './queue/job-schemas';
export * from './queue/live-event-schema';
export * from './queue/series-fields';
export * from './run-metric-keys';
export * from './change-points';
export * from './script-metrics';
export * from './run-summary';
export * from './service-defaults';
