export { main, type Io } from './main';
export { parseRunArgs, type RunOptions } from './args';
export { toJUnit } from './report/junit';
export { toMarkdown } from './report/markdown';
export type { RunResult, Comparison, ExperimentSummary, Experiment } from './types';
