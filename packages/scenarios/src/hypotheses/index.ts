export * from './hypothesis-metrics';
export * from './hypothesis-schema';
export * from './hypothesis-statement';
export * from './resolve-preset-hypotheses';
export * from './hypothesis-verdict';
