import type { Db } from '@poolbench/db';
import { parseTarget, sealSecret, toJson } from '@poolbench/db';
import type { TargetValues } from '~/lib/schemas/target';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';
import { labDataCellsCap, labDataTooLarge } from '@poolbench/scenarios';
import { checkMonitorDsn } from './check-monitor-dsn';
import { checkTargetHosts } from './check-target-hosts';
import { refuseOwnServiceUrl } from './refuse-own-service';
import { TARGET_SELECT, type TargetView } from './target-view';

export interface SaveTargetDeps {
  db: Db;
  /** AES key for sealSecret; throws with a clear message when the server has none */
  secretKey: () => Buffer;
  /** PoolBench's own DATABASE_URL: a monitor DSN may never point there */
  ownDatabaseUrl: string;
  /** the installation's cap on rows × fields of a managed target's data set (LAB_MAX_DATA_CELLS) */
  labDataCellsCap?: number;
}

/** A managed target's data set must fit the installation's cap (its own database per shape). */
function refuseOversizedLabData(deps: SaveTargetDeps, v: TargetValues) {
  if (v.kind !== 'managed') return;
  const why = labDataTooLarge(v.setup, deps.labDataCellsCap ?? labDataCellsCap(process.env));
  if (why) throw new InvalidInputError('setup.rows', why);
}

function columns(v: TargetValues) {
  if (v.kind === 'managed') {
    return {
      kind: 'managed' as const,
      name: v.name,
      baseUrls: [],
      managed: toJson.targetManaged({
        program: 'lab-target',
        setup: v.setup,
        environment: v.environment,
      }),
      requestDefaults: toJson.requestDefaults(v.requestDefaults),
      secretHeaderNames: [],
      metricsUrl: null,
      applyHookUrl: null,
      readinessPath: '/ready',
    };
  }
  const plain = Object.fromEntries(
    v.headers.filter((h) => !h.secret).map((h) => [h.name, h.value]),
  );
  return {
    kind: 'url' as const,
    name: v.name,
    baseUrls: v.baseUrls,
    managed: undefined,
    requestDefaults: toJson.requestDefaults({ ...v.requestDefaults, headers: plain }),
    secretHeaderNames: v.headers.filter((h) => h.secret).map((h) => h.name),
    metricsUrl: v.metricsUrl ?? null,
    applyHookUrl: v.applyHookUrl ?? null,
    readinessPath: v.readinessPath ?? null,
  };
}

function sealed(v: Extract<TargetValues, { kind: 'url' }>, key: () => Buffer) {
  const secretHeaders = v.headers.filter((h) => h.secret);
  const missing = secretHeaders.find((h) => h.value === '');
  if (missing)
    throw new InvalidInputError(
      `headers.${v.headers.indexOf(missing)}.value`,
      'enter the secret value (stored values are never shown, so all secrets are entered again together)',
    );
  const payload = {
    headers: Object.fromEntries(secretHeaders.map((h) => [h.name, h.value])),
    ...(v.monitorDsn ? { monitorDsn: v.monitorDsn } : {}),
  };
  if (secretHeaders.length === 0 && !v.monitorDsn)
    return { secretsEncrypted: null, hasMonitorDsn: false };
  return { secretsEncrypted: sealSecret(payload, key()), hasMonitorDsn: Boolean(v.monitorDsn) };
}

async function assertNameFree(db: Db, teamId: string, name: string, exceptId?: string) {
  const clash = await db.target.findFirst({
    where: { teamId, name, archivedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new ConflictError(`a target named "${name}" already exists`);
}

/** Each URL of a URL target by field, for errors that name it. */
function namedUrlsOf(v: Extract<TargetValues, { kind: 'url' }>): Array<[string, string]> {
  return [
    ...v.baseUrls.map((u, i) => [`baseUrls.${i}`, u] as [string, string]),
    ...(v.metricsUrl ? [['metricsUrl', v.metricsUrl] as [string, string]] : []),
    ...(v.applyHookUrl ? [['applyHookUrl', v.applyHookUrl] as [string, string]] : []),
  ];
}

async function refuseOwnServices(v: Extract<TargetValues, { kind: 'url' }>) {
  for (const [field, url] of namedUrlsOf(v)) await refuseOwnServiceUrl(field, url);
}

function urlsOf(v: Extract<TargetValues, { kind: 'url' }>) {
  return [
    ...v.baseUrls,
    ...(v.metricsUrl ? [v.metricsUrl] : []),
    ...(v.applyHookUrl ? [v.applyHookUrl] : []),
  ];
}

export async function createTarget(
  deps: SaveTargetDeps,
  teamId: string,
  v: TargetValues,
): Promise<TargetView> {
  await assertNameFree(deps.db, teamId, v.name);
  refuseOversizedLabData(deps, v);
  const cols = columns(v);
  if (v.kind === 'url') await refuseOwnServices(v);
  if (v.kind === 'url') await checkTargetHosts(deps.db, teamId, urlsOf(v));
  if (v.kind === 'url' && v.monitorDsn)
    await checkMonitorDsn(deps.db, teamId, v.monitorDsn, deps.ownDatabaseUrl);
  const secrets =
    v.kind === 'url' ? sealed(v, deps.secretKey) : { secretsEncrypted: null, hasMonitorDsn: false };
  return parseTarget(
    await deps.db.target.create({
      data: { teamId, ...cols, managed: cols.managed, ...secrets },
      select: TARGET_SELECT,
    }),
  );
}

/**
 * Secrets are write-only: unless `replaceSecrets` is set, the sealed blob and secret header names
 * stay as they were (the web app cannot open them to merge).
 */
export async function updateTarget(
  deps: SaveTargetDeps,
  teamId: string,
  id: string,
  v: TargetValues,
): Promise<TargetView> {
  const existing = await deps.db.target.findFirst({
    where: { id, teamId, archivedAt: null },
    select: { id: true, kind: true, secretHeaderNames: true },
  });
  if (!existing) throw new NotFoundError('target');
  if (existing.kind !== v.kind)
    throw new InvalidInputError(
      'kind',
      'the kind of a target cannot change; create a new target instead',
    );
  await assertNameFree(deps.db, teamId, v.name, id);
  refuseOversizedLabData(deps, v);
  const cols = columns(v);
  let secrets: {
    secretsEncrypted?: Uint8Array<ArrayBuffer> | null;
    hasMonitorDsn?: boolean;
    secretHeaderNames?: string[];
  } = {};
  if (v.kind === 'url') {
    await refuseOwnServices(v);
    await checkTargetHosts(deps.db, teamId, urlsOf(v));
    if (v.replaceSecrets && v.monitorDsn)
      await checkMonitorDsn(deps.db, teamId, v.monitorDsn, deps.ownDatabaseUrl);
    if (v.replaceSecrets) secrets = sealed(v, deps.secretKey);
    else secrets = { secretHeaderNames: existing.secretHeaderNames };
  }
  return parseTarget(
    await deps.db.target.update({
      where: { id },
      data: { ...cols, managed: cols.managed, ...secrets },
      select: TARGET_SELECT,
    }),
  );
}
