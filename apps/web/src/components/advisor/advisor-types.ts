import type { AdvisorSpec, AdvisorState } from '@poolbench/db';

/** The advisor as experiment.get returns it (dates as strings, numbers as parsed). */
export type AdvisorStateView = AdvisorState;
export type AdvisorSpecView = AdvisorSpec;
