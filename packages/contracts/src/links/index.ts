export * from './compare-path';
