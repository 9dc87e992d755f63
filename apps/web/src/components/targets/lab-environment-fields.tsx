'use client';

import {
  BALANCING_MODES,
  LAB_DATABASES,
  RUNTIME_LABELS,
  RUNTIMES,
  type LabEnvironment,
} from '@poolbench/scenarios';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Field, NumberInput, Select } from '~/components/ui/form';

type NumKey = 'blobstoreDelayMs' | 'dbLinkRttMs' | 'roleConnectionLimit' | 'cpuLimit';

const NUM_FIELDS: Array<{ key: NumKey; label: string; help: string }> = [
  {
    key: 'dbLinkRttMs',
    label: 'Database link RTT (ms)',
    help: 'A proxy between target and Postgres adds this round trip (half each way).',
  },
  {
    key: 'blobstoreDelayMs',
    label: 'Blob store delay per connection (ms)',
    help: 'Added once per new upstream connection, before its TLS handshake.',
  },
  {
    key: 'roleConnectionLimit',
    label: 'Role connection limit',
    help: 'The target connects as a per-run role with this CONNECTION LIMIT (refusals: SQLSTATE 53300).',
  },
  {
    key: 'cpuLimit',
    label: 'CPU limit (GOMAXPROCS)',
    help: 'Cores each instance may use at once.',
  },
];

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
  return (
    <Card>
      <CardHeader
        title="Environment"
        description="Set up by the worker around the target for every run and torn down with it. Leave empty for plain loopback."
      />
      <CardBody className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
        <Field
          label="Runtime"
          help="The program serving the target; each honours its own strategies and pool settings (docs/runtimes.md)."
          error={err('environment.runtime')}
        >
          {(p) => (
            <Select
              {...p}
              value={value.runtime ?? 'go'}
              onChange={(e) =>
                onChange({ ...value, runtime: e.target.value as LabEnvironment['runtime'] })
              }
            >
              {RUNTIMES.map((r) => (
                <option key={r} value={r}>
                  {RUNTIME_LABELS[r]}
                </option>
              ))}
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
              {LAB_DATABASES.map((d) => (
                <option key={d} value={d}>
                  {d === 'mariadb' ? 'MariaDB' : 'Postgres'}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {NUM_FIELDS.map((f) => (
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
              {BALANCING_MODES.map((m) => (
                <option key={m} value={m}>
                  {m === 'nginx' ? 'nginx in front' : 'k6 round robin'}
                </option>
              ))}
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
      ([k, v]) => v !== undefined && !(k === 'balancing' && v === 'k6-round-robin'),
    ),
  ) as LabEnvironment;
}
