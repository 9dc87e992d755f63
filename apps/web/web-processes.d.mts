/** See web-processes.mjs. */
export function webProcesses(value: string | undefined, cores?: number): number;
