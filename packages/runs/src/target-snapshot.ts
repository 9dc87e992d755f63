import { hasUrlCredentials, redactUrl } from '@poolbench/contracts/net';

/** Non-secret view of a target frozen into each run. */
export function targetSnapshot(t: {
  id: string;
  name: string;
  kind: string;
  baseUrls: string[];
  managed: unknown;
  requestDefaults: unknown;
  metricsUrl: string | null;
  applyHookUrl: string | null;
  readinessPath: string | null;
  secretHeaderNames: string[];
  hasMonitorDsn: boolean;
}) {
  // Old rows may carry user:pass@ in a URL (refused at save since): never copy it into a run.
  const clean = (u: string | null) => (u && hasUrlCredentials(u) ? redactUrl(u) : u);
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    baseUrls: t.baseUrls.map((u) => clean(u)!),
    managed: t.managed,
    requestDefaults: t.requestDefaults,
    metricsUrl: clean(t.metricsUrl),
    applyHookUrl: clean(t.applyHookUrl),
    readinessPath: t.readinessPath,
    secretHeaderNames: t.secretHeaderNames,
    hasMonitorDsn: t.hasMonitorDsn,
  };
}
