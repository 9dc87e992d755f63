export * from './error-codes';
export * from './app-error';
export * from './nul';
