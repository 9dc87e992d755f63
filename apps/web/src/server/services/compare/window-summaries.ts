// Moved to @poolbench/runs, so the worker decides windowed hypotheses exactly as this view compares.
export { windowSummaries } from '@poolbench/runs';
