export * from './ip-math';
export * from './special-ranges';
export * from './redact-url';
export * from './k6-network';
export * from './describe-range';
export * from './webhook-address';
export * from './own-services';
export * from './opened-ranges';
