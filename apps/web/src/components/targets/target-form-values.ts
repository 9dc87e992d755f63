import type { LabEnvironment } from '@poolbench/contracts';
import {
  DEFAULT_LAB_SETUP,
  TargetInputSchema,
  type TargetInput,
  type TargetValues,
} from '~/lib/schemas/target';
import { serverSchemaResolver } from '~/lib/forms/server-schema-resolver';
import { compactEnvironment } from './lab-environment-fields';

export type SetupKey = keyof typeof DEFAULT_LAB_SETUP;

/** The target form's values (react-hook-form): query and headers as rows, base URLs as text. */
export interface TargetFormValues {
  kind: 'managed' | 'url';
  name: string;
  requestDefaults: { method: string; path: string; query: Array<{ key: string; value: string }> };
  setup: Partial<Record<SetupKey, number>>;
  environment: LabEnvironment;
  baseUrls: string;
  headers: Array<{ name: string; value: string; secret: boolean }>;
  metricsUrl: string;
  applyHookUrl: string;
  readinessPath: string;
  monitorDsn: string;
  replaceSecrets: boolean;
}

/** The body of target.create (and `target` of target.update) the values describe. */
export function toTargetInput(v: TargetFormValues): TargetInput {
  const requestDefaults = {
    method: v.requestDefaults.method as 'GET',
    path: v.requestDefaults.path,
    query: Object.fromEntries(
      v.requestDefaults.query.filter((q) => q.key).map((q) => [q.key, q.value]),
    ),
  };
  if (v.kind === 'managed')
    return {
      kind: 'managed',
      name: v.name,
      requestDefaults,
      setup: { ...DEFAULT_LAB_SETUP, ...v.setup },
      environment: compactEnvironment(v.environment),
    };
  return {
    kind: 'url',
    name: v.name,
    requestDefaults,
    baseUrls: v.baseUrls.split(/\s+/).filter(Boolean),
    headers: v.headers,
    metricsUrl: v.metricsUrl,
    applyHookUrl: v.applyHookUrl,
    readinessPath: v.readinessPath,
    monitorDsn: v.monitorDsn,
    replaceSecrets: v.replaceSecrets,
  };
}

/**
 * The form field a problem of the request is about: `baseUrls.2` is the Base URLs text, the
 * query is one list of rows, `target.` (target.update's wrapper) is dropped; null: no field.
 */
export function targetField(path: string): string | null {
  const p = path.replace(/^target\./, '');
  if (/^baseUrls(\.\d+)?$/.test(p)) return 'baseUrls';
  if (p.startsWith('requestDefaults.query')) return 'requestDefaults.query';
  if (p === 'kind' || p === '' || p === 'id') return null;
  return p;
}

/** The server's TargetInputSchema as the form's resolver. */
export const targetResolver = serverSchemaResolver<TargetFormValues, TargetValues>(
  TargetInputSchema,
  toTargetInput,
  targetField,
);
