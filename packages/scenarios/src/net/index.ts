export * from './ip-math';
export * from './special-ranges';
export * from './redact-url';
