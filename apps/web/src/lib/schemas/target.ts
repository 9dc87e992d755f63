import { z } from 'zod';
import { hasUrlCredentials, URL_CREDENTIALS_MESSAGE } from '@poolbench/contracts/net';
import { LabEnvironmentSchema } from '@poolbench/contracts';
import { HTTP_METHODS } from '@poolbench/scenarios';

/** Endpoints of the lab target a managed target's default request may use. */
export const LAB_ENDPOINTS = [
  {
    method: 'GET',
    path: '/health',
    label: 'GET /health',
    help: 'No database work: measures the HTTP stack alone, the pool is never used.',
  },
  {
    method: 'GET',
    path: '/roles',
    label: 'GET /roles',
    help: 'Reads roles with their permissions (join over the roles data set).',
  },
  {
    method: 'GET',
    path: '/query',
    label: 'GET /query',
    help: 'Runs a query on the fields table; ?ms= adds server-side sleep.',
  },
  {
    method: 'GET',
    path: '/work',
    label: 'GET /work',
    help: 'Holds a pool connection for ?ms= milliseconds: isolates pool behaviour.',
  },
  {
    method: 'POST',
    path: '/work',
    label: 'POST /work',
    help: 'Like GET /work, with a request body.',
  },
  {
    method: 'POST',
    path: '/upload',
    label: 'POST /upload',
    help: 'Streams the body to the blob store through the upstream HTTP pool (seed 000).',
    /** only runtimes with an upload path (RUNTIME_CAPABILITIES[runtime].upload) serve it */
    upload: true,
  },
] as const;

const name = z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters');
const path = z
  .string()
  .regex(/^\/[A-Za-z0-9\-._~/%]*$/, 'must start with / (no query string)')
  .max(256);
const httpUrl = z
  .string()
  .trim()
  // abort: the checks below parse the URL, and `new URL` throws on text that is not one
  .url({ message: 'must be a URL like https://api.example.com', abort: true })
  .refine((u) => /^https?:$/.test(new URL(u).protocol), 'must use http or https')
  // user:pass@ would be stored in plain text, copied into run snapshots and put on k6's command line.
  .refine((u) => !hasUrlCredentials(u), URL_CREDENTIALS_MESSAGE);
/** Empty means none. Not a union with '': a union that fails says only "Invalid input", this says why. */
const blankAsNone = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .transform((v) => (v.trim() === '' ? undefined : v))
    .pipe(schema.optional())
    .optional();
const optionalUrl = blankAsNone(httpUrl);
const headerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/, 'must be a valid header name');
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII without line breaks');

export const RequestDefaultsSchema = z.object({
  method: z.enum(HTTP_METHODS).default('GET'),
  path: path.default('/'),
  query: z.record(z.string(), z.string()).default({}),
});

export const LabSetupSchema = z.object({
  rows: z
    .number()
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .max(5_000_000, 'must be at most 5,000,000'),
  fields: z.number().int().min(1).max(200),
  roles: z.number().int().min(1).max(10_000),
  permissions: z.number().int().min(1).max(100_000),
  shards: z.number().int().min(1).max(64),
});
export const DEFAULT_LAB_SETUP = {
  rows: 10_000,
  fields: 40,
  roles: 50,
  permissions: 200,
  shards: 4,
};

export const ManagedTargetSchema = z.object({
  kind: z.literal('managed'),
  name,
  requestDefaults: RequestDefaultsSchema,
  setup: LabSetupSchema.default(DEFAULT_LAB_SETUP),
  /** what the worker sets up around the target for each run (link RTT, role limit, CPU, balancer) */
  environment: LabEnvironmentSchema.default({}),
});

export const TargetHeaderSchema = z.object({
  name: headerName,
  /** secret values are write-only: empty on edit means "keep the stored value" */
  value: headerValue,
  secret: z.boolean().default(false),
});

export const UrlTargetSchema = z.object({
  kind: z.literal('url'),
  name,
  baseUrls: z.array(httpUrl).min(1, 'add at least one base URL').max(16, 'at most 16 base URLs'),
  requestDefaults: RequestDefaultsSchema,
  headers: z.array(TargetHeaderSchema).max(32).default([]),
  metricsUrl: optionalUrl,
  applyHookUrl: optionalUrl,
  readinessPath: blankAsNone(path),
  /** write-only; empty on edit keeps the stored DSN */
  monitorDsn: z
    .string()
    .max(2048)
    .refine(
      (v) => v === '' || /^postgres(ql)?:\/\//.test(v),
      'must be a postgres:// or postgresql:// URL',
    )
    .optional(),
  /** on edit: true replaces every stored secret with the values given now */
  replaceSecrets: z.boolean().default(false),
});

export const TargetInputSchema = z.discriminatedUnion('kind', [
  ManagedTargetSchema,
  UrlTargetSchema,
]);
export type TargetInput = z.input<typeof TargetInputSchema>;
export type TargetValues = z.output<typeof TargetInputSchema>;
