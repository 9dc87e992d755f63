export * from './json-column';
export * from './column-schemas';
export * from './parse-rows';
export * from './to-json';
