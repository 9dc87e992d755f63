'use client';

import { RUNTIME_CAPABILITIES, runtimeOffer } from '@poolbench/scenarios';
import {
  BALANCING_MODES,
  CPU_ISOLATION_MODES,
  LAB_DATABASES,
  RUNTIME_LABELS,
  RUNTIMES,
  type LabDatabase,
  type LabEnvironment,
  type Runtime,
} from '@poolbench/contracts';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Field, NumberInput, Options, Select } from '~/components/ui/form';

type NumKey = 'blobstoreDelayMs' | 'dbLinkRttMs' | 'roleConnectionLimit' | 'cpuLimit';

const DATABASE_LABELS: Record<LabDatabase, string> = { postgres: 'Postgres', mariadb: 'MariaDB' };

// how each runtime applies a CPU limit (apps/worker/src/targets): Go by GOMAXPROCS, the JVM by
// its processor count; the others have no setting, so the field is not offered for them
const CPU_LIMIT_HOW: Partial<Record<Runtime, string>> = {
  go: 'Cores each instance may use at once (GOMAXPROCS).',
  'java-hikari': 'Cores each JVM sees (-XX:ActiveProcessorCount).',
};

/**
 * The environment fields the resolved runtime and database can be run under, worded for them:
 * the blob store exists only behind a runtime with /upload, the CPU limit only where the runtime
 * has a setting, and the connection limit is Postgres's role limit or MariaDB's user limit.
 */
export function environmentNumFields(
  runtime: Runtime,
  database: LabDatabase,
): Array<{ key: NumKey; label: string; help: string }> {
  const caps = RUNTIME_CAPABILITIES[runtime];
  const db = DATABASE_LABELS[database];
  return [
    {
      key: 'dbLinkRttMs',
      label: 'Database link RTT (ms)',
      help: `A proxy between target and ${db} adds this round trip (half each way).`,
    },
    ...(caps.upload
      ? [
          {
            key: 'blobstoreDelayMs' as const,
            label: 'Blob store delay per connection (ms)',
            help: 'Added once per new upstream connection of POST /upload, before its TLS handshake.',
          },
        ]
      : []),
    database === 'mariadb'
      ? {
          key: 'roleConnectionLimit',
          label: 'User connection limit',
          help: 'The target connects as a per-run user with this MAX_USER_CONNECTIONS (refusals: error 1203; the server-wide limit is error 1040).',
        }
      : {
          key: 'roleConnectionLimit',
          label: 'Role connection limit',
          help: 'The target connects as a per-run role with this CONNECTION LIMIT (refusals: SQLSTATE 53300).',
        },
    ...(caps.cpuLimit
      ? [
          {
            key: 'cpuLimit' as const,
            label: 'CPU limit (cores)',
            help: CPU_LIMIT_HOW[runtime] ?? 'Cores each instance may use at once.',
          },
        ]
      : []),
  ];
}

/**
 * The environment the worker builds around a managed target for every run. Empty fields mean
 * loopback, no limit, all cores; a pool config can override single fields.
 */
export function LabEnvironmentFields({
  value,
  onChange,
  err,
}: {
  value: LabEnvironment;
  onChange: (v: LabEnvironment) => void;
  err: (path: string) => string | null;
}) {
  const { runtime, database } = runtimeOffer(value);
  // switching to a runtime that cannot honour a field drops the field instead of leaving a
  // value the server would refuse
  const onRuntime = (next: Runtime) => {
    const c = RUNTIME_CAPABILITIES[next];
    onChange({
      ...value,
      runtime: next,
      ...(c.cpuLimit ? {} : { cpuLimit: undefined }),
      ...(c.upload ? {} : { blobstoreDelayMs: undefined }),
    });
  };
  return (
    <Card>
      <CardHeader
        title="Environment"
        description="Set up by the worker around the target for every run and torn down with it. Leave empty for plain loopback."
      />
      <CardBody className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field
          label="Runtime"
          help="The program serving the target; each honours its own strategies and pool settings (docs/runtimes.md)."
          error={err('environment.runtime')}
        >
          {(p) => (
            <Select
              {...p}
              value={value.runtime ?? 'go'}
              onChange={(e) => onRuntime(e.target.value as Runtime)}
            >
              <Options items={RUNTIMES} label={(r) => RUNTIME_LABELS[r]} />
            </Select>
          )}
        </Field>
        <Field
          label="Database"
          help="The lab data set in the worker's Postgres, or in its MariaDB (seed 001's MySQL)."
          error={err('environment.database')}
        >
          {(p) => (
            <Select
              {...p}
              value={value.database ?? 'postgres'}
              onChange={(e) =>
                onChange({ ...value, database: e.target.value as LabEnvironment['database'] })
              }
            >
              <Options items={LAB_DATABASES} label={(d) => DATABASE_LABELS[d]} />
            </Select>
          )}
        </Field>
        {environmentNumFields(runtime, database).map((f) => (
          <Field
            key={f.key}
            label={f.label}
            optional
            help={f.help}
            error={err(`environment.${f.key}`)}
          >
            {(p) => (
              <NumberInput
                {...p}
                min={f.key === 'dbLinkRttMs' || f.key === 'blobstoreDelayMs' ? 0 : 1}
                value={value[f.key]}
                onValue={(v) => onChange({ ...value, [f.key]: v })}
              />
            )}
          </Field>
        ))}
        <Field
          label="Balancing (several instances)"
          help="k6 round robin over the instances, or a real nginx in front."
          error={err('environment.balancing')}
        >
          {(p) => (
            <Select
              {...p}
              value={value.balancing ?? 'k6-round-robin'}
              onChange={(e) =>
                onChange({ ...value, balancing: e.target.value as LabEnvironment['balancing'] })
              }
            >
              <Options
                items={BALANCING_MODES}
                label={(m) => (m === 'nginx' ? 'nginx in front' : 'k6 round robin')}
              />
            </Select>
          )}
        </Field>
        <Field
          label="CPU isolation"
          help="k6 and the target (its instances, nginx, link proxy) on separate CPUs of the worker, so neither steals the other's time; each run records what it got."
          error={err('environment.cpuIsolation')}
        >
          {(p) => (
            <Select
              {...p}
              value={value.cpuIsolation ?? 'auto'}
              onChange={(e) =>
                onChange({
                  ...value,
                  cpuIsolation: CPU_ISOLATION_MODES.find((m) => m === e.target.value),
                })
              }
            >
              <option value="auto">Separate CPUs where possible</option>
              <option value="off">Off: share every CPU</option>
            </Select>
          )}
        </Field>
      </CardBody>
    </Card>
  );
}

/** Drops unset fields, so a stored environment holds only what the user chose. */
export function compactEnvironment(env: LabEnvironment): LabEnvironment {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) =>
        v !== undefined &&
        !(k === 'balancing' && v === 'k6-round-robin') &&
        !(k === 'cpuIsolation' && v === 'auto'),
    ),
  ) as LabEnvironment;
}
