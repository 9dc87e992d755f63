import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

// The Helm chart checked offline with the real tools: helm lint, helm template, and kubeconform
// -strict against Kubernetes' and KEDA's schemas (infra/helm/tools.sh installs them; setup.sh
// --for-tests runs it). No cluster runs here, so what a cluster would refuse is caught by the
// schemas, and what PoolBench needs from the manifests by the assertions below.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// where infra/helm/tools.sh puts them
const tools =
  process.env.POOLBENCH_TOOLS_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'poolbench', 'tools');
const helmBin = join(tools, 'bin', 'helm');
const kubeconformBin = join(tools, 'bin', 'kubeconform');
const chart = join(root, 'infra/helm/poolbench');
const K8S = '1.37.0';

interface Manifest {
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  stringData?: Record<string, string>;
}
interface Container {
  name: string;
  command?: string[];
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { key: string; optional?: boolean };
      fieldRef?: { fieldPath: string };
    };
  }>;
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  initContainers?: Container[];
  containers: Container[];
}

function sh(cmd: string, args: string[], input?: string) {
  const r = spawnSync(cmd, args, { cwd: root, input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function helm(args: string[]) {
  return sh(helmBin, args);
}
function render(...values: string[]): Manifest[] {
  const r = helm(['template', 'pb', chart, ...values]);
  expect(r.err, 'helm template').toBe('');
  expect(r.code).toBe(0);
  return parseAllDocuments(r.out)
    .map((d) => d.toJSON() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}
function kubeconform(yamlText: string) {
  const loc = join(
    tools,
    'k8s-schemas',
    '{{ .NormalizedKubernetesVersion }}-strict',
    '{{ .ResourceKind }}{{ .KindSuffix }}.json',
  );
  return sh(
    kubeconformBin,
    ['-strict', '-summary', '-kubernetes-version', K8S, '-schema-location', loc, '-'],
    yamlText,
  );
}
const find = (ms: Manifest[], kind: string, suffix: string) => {
  const m = ms.find((x) => x.kind === kind && x.metadata.name.endsWith(suffix));
  if (!m)
    throw new Error(
      `no ${kind} *${suffix} in ${ms.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`,
    );
  return m;
};
const podSpec = (m: Manifest) => (m.spec as { template: { spec: PodSpec } }).template.spec;
const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
const DEFAULTS = ['-f', join(chart, 'ci/default-values.yaml')];
const KEDA = ['-f', join(chart, 'ci/keda-values.yaml')];

describe('infra/helm/poolbench', () => {
  it('has its tools (infra/helm/tools.sh, run by setup.sh --for-tests)', () => {
    expect(existsSync(helmBin), helmBin).toBe(true);
    expect(existsSync(kubeconformBin), kubeconformBin).toBe(true);
  });

  for (const [name, values] of [
    ['default values', DEFAULTS],
    ['KEDA on, external Postgres and Redis', KEDA],
  ] as const) {
    it(`${name}: helm lint passes and every manifest is valid for Kubernetes ${K8S} (kubeconform -strict)`, () => {
      const lint = helm(['lint', '--strict', chart, ...values]);
      expect(lint.code, lint.out + lint.err).toBe(0);
      const out = helm(['template', 'pb', chart, ...values]);
      expect(out.code, out.err).toBe(0);
      const kc = kubeconform(out.out);
      expect(kc.code, kc.out + kc.err).toBe(0);
      expect(kc.out).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
    });
  }

  it('kubeconform is strict here: an unknown field in a Deployment and in the ScaledObject fails', () => {
    const out = helm(['template', 'pb', chart, ...KEDA]).out;
    const kc = kubeconform(
      out
        .replace('terminationGracePeriodSeconds:', 'terminationGracePeriodSecondz:')
        .replace('pollingInterval:', 'pollingIntervall:'),
    );
    expect(kc.code).not.toBe(0);
    expect(kc.out).toContain("'terminationGracePeriodSecondz' not allowed");
    expect(kc.out).toContain("'pollingIntervall' not allowed");
  });

  it('renders web, worker, a migration Job, Secret, PDBs and the bundled services by default; no ScaledObject', () => {
    const kinds = render(...DEFAULTS)
      .map((m) => `${m.kind}/${m.metadata.name}`)
      .sort();
    expect(kinds).toEqual([
      'Deployment/pb-poolbench-web',
      'Deployment/pb-poolbench-worker',
      'Job/pb-poolbench-migrate-1',
      'PodDisruptionBudget/pb-poolbench-web',
      'PodDisruptionBudget/pb-poolbench-worker',
      'Secret/pb-poolbench-secrets',
      'Service/pb-poolbench-postgres',
      'Service/pb-poolbench-redis',
      'Service/pb-poolbench-web',
      'StatefulSet/pb-poolbench-postgres',
      'StatefulSet/pb-poolbench-redis',
    ]);
  });

  it('gives a worker longer to stop than its own shutdown grace, and tells it that grace', () => {
    for (const grace of [20, 300]) {
      const worker = find(
        render(...DEFAULTS, '--set', `worker.shutdownGraceSeconds=${grace}`),
        'Deployment',
        '-worker',
      );
      const spec = podSpec(worker);
      const c = spec.containers[0]!;
      expect(env(c, 'WORKER_SHUTDOWN_GRACE_MS')?.value).toBe(String(grace * 1000));
      expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(grace);
    }
    const r = helm([
      'template',
      'pb',
      chart,
      ...DEFAULTS,
      '--set',
      'worker.terminationMarginSeconds=0',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/terminationMarginSeconds/);
  });

  it('with KEDA the ScaledObject owns the worker count, scaling on the run statuses that need a worker', () => {
    const ms = render(...KEDA);
    const worker = find(ms, 'Deployment', '-worker');
    expect(worker.spec!.replicas).toBeUndefined();
    const so = find(ms, 'ScaledObject', '-worker') as Manifest & {
      spec: {
        scaleTargetRef: { name: string };
        triggers: Array<{ type: string; metadata: Record<string, string> }>;
      };
    };
    expect(so.spec.scaleTargetRef.name).toBe(worker.metadata.name);
    const t = so.spec.triggers[0]!;
    expect(t.type).toBe('postgresql');
    expect(t.metadata.targetQueryValue).toBe('2'); // = worker.concurrency of keda-values.yaml
    // The query names real RunStatus values: the scaler must follow the schema if statuses change.
    expect(
      env(podSpec(worker).containers[0]!, t.metadata.connectionFromEnv!)?.valueFrom?.secretKeyRef
        ?.key,
    ).toBe('DATABASE_URL');
    const prisma = readFileSync(join(root, 'packages/db/prisma/schema.prisma'), 'utf8');
    const statuses = /enum RunStatus \{([^}]*)\}/
      .exec(prisma)![1]!
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    const queried = [...t.metadata.query!.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(queried).toEqual(['queued', 'preparing', 'running']);
    for (const s of queried) expect(statuses).toContain(s);
    // a distributed run needs one worker per load generator: the scaler sums the real column
    expect(t.metadata.query).toContain('sum("loadGenerators")');
    expect(prisma).toMatch(/model Run \{[^}]*\n\s+loadGenerators\s+Int/);
  });

  it('mail: the SMTP URL (credentials) only in the Secret, read by the web through an optional key', () => {
    const url = 'smtp://pb:s3cret@smtp.example.com:587';
    const ms = render(
      ...DEFAULTS,
      '--set',
      `mail.smtpUrl=${url}`,
      '--set',
      'mail.from=PoolBench <pb@example.com>',
    );
    expect(find(ms, 'Secret', '-secrets').stringData!.SMTP_URL).toBe(url);
    const web = podSpec(find(ms, 'Deployment', '-web')).containers[0]!;
    expect(env(web, 'SMTP_URL')?.valueFrom?.secretKeyRef).toMatchObject({
      key: 'SMTP_URL',
      optional: true,
    });
    expect(env(web, 'MAIL_FROM')?.value).toBe('PoolBench <pb@example.com>');
    for (const m of ms.filter((x) => x.kind !== 'Secret'))
      expect(JSON.stringify(m), m.metadata.name).not.toContain('s3cret');
    // unset: no key in the Secret, the app's default sender, the optional reference stays valid
    const plain = render(...DEFAULTS);
    expect(find(plain, 'Secret', '-secrets').stringData).not.toHaveProperty('SMTP_URL');
    expect(env(podSpec(find(plain, 'Deployment', '-web')).containers[0]!, 'MAIL_FROM')).toBe(
      undefined,
    );
    const kc = kubeconform(
      helm(['template', 'pb', chart, ...DEFAULTS, '--set', `mail.smtpUrl=${url}`]).out,
    );
    expect(kc.code, kc.out + kc.err).toBe(0);
  });

  it("bundled Redis: the app's ACL user with infra/services.sh's rules, the default user off, the password only in the Secret", () => {
    const ms = render(...DEFAULTS);
    const secret = find(ms, 'Secret', '-secrets').stringData!;
    const pass = secret.REDIS_PASSWORD!;
    expect(pass).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(secret.REDIS_URL).toBe(`redis://poolbench:${pass}@pb-poolbench-redis:6379`);
    const redis = podSpec(find(ms, 'StatefulSet', '-redis')).containers[0]!;
    const native = /^REDIS_APP_RULES='([^']+)'$/m.exec(
      readFileSync(join(root, 'infra/services.sh'), 'utf8'),
    )![1]!;
    const args = (redis as { args?: string[] }).args!.join(' ');
    expect(args).toContain('--user default off');
    expect(args).toContain(`--user poolbench on >$(REDISCLI_AUTH) ${native}`);
    expect(env(redis, 'REDISCLI_AUTH')?.valueFrom?.secretKeyRef).toMatchObject({
      key: 'REDIS_PASSWORD',
    });
    for (const m of ms.filter((x) => x.kind !== 'Secret'))
      expect(JSON.stringify(m), m.metadata.name).not.toContain(pass);
  });

  it('names installation admins for the web app when given (POOLBENCH_INSTALLATION_ADMINS)', () => {
    const web = (...v: string[]) =>
      podSpec(find(render(...DEFAULTS, ...v), 'Deployment', '-web')).containers[0]!;
    expect(env(web(), 'POOLBENCH_INSTALLATION_ADMINS')).toBe(undefined);
    expect(
      env(
        web('--set', 'web.installationAdmins={ops@example.com,sre@example.com}'),
        'POOLBENCH_INSTALLATION_ADMINS',
      )?.value,
    ).toBe('ops@example.com,sre@example.com');
  });

  it('gives web and worker the installation-wide limits, which the chart can change', () => {
    const containers = (...v: string[]) => {
      const ms = render(...DEFAULTS, ...v);
      return ['-web', '-worker'].map((s) => podSpec(find(ms, 'Deployment', s)).containers[0]!);
    };
    for (const c of containers()) {
      expect(env(c, 'POOLBENCH_QUEUED_LOAD_MINUTES')?.value).toBe('2880');
      expect(env(c, 'LAB_MAX_DATA_CELLS')?.value).toBe('10000000');
      expect(env(c, 'LAB_SHAPE_RETENTION_DAYS')?.value).toBe('14');
    }
    const set = [
      '--set',
      'installation.labMaxDataCells=250000000',
      '--set',
      'installation.queuedLoadMinutes=600',
    ];
    for (const c of containers(...set)) {
      expect(env(c, 'LAB_MAX_DATA_CELLS')?.value).toBe('250000000');
      expect(env(c, 'POOLBENCH_QUEUED_LOAD_MINUTES')?.value).toBe('600');
    }
  });

  it('a worker advertises its pod IP, where other generators reach the managed target it leads', () => {
    const c = podSpec(find(render(...DEFAULTS), 'Deployment', '-worker')).containers[0]!;
    expect(env(c, 'WORKER_ADVERTISE_HOST')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    const workerEnv = readFileSync(join(root, 'apps/worker/src/env.ts'), 'utf8');
    expect(workerEnv).toContain('WORKER_ADVERTISE_HOST');
  });

  it('web and worker wait for the schema of their build; the Job migrates with the command the product ships', () => {
    const ms = render(...DEFAULTS);
    const dbScripts = (
      JSON.parse(readFileSync(join(root, 'packages/db/package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(dbScripts.migrate).toBeDefined();
    for (const suffix of ['-web', '-worker']) {
      const init = podSpec(find(ms, 'Deployment', suffix)).initContainers ?? [];
      expect(init.map((c) => c.name)).toEqual(['wait-for-schema']);
      expect(init[0]!.command!.join(' ')).toMatch(
        /npm run -s migrate -w @poolbench\/db -- --wait=\d+/,
      );
    }
    const job = podSpec(find(ms, 'Job', '-migrate-1'));
    expect(job.containers[0]!.command!.join(' ')).toContain('npm run -s migrate -w @poolbench/db');
  });

  it('secrets reach pods only through secretKeyRef, never as plain values in a pod spec', () => {
    const ms = render(...DEFAULTS);
    const secretKeys = [
      'DATABASE_URL',
      'REDIS_URL',
      'POOLBENCH_SECRET_KEY',
      'BETTER_AUTH_SECRET',
      'LAB_DATABASE_URL',
    ];
    for (const m of ms.filter((x) => ['Deployment', 'Job', 'StatefulSet'].includes(x.kind))) {
      for (const c of [...podSpec(m).containers, ...(podSpec(m).initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          if (
            ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'REDISCLI_AUTH', ...secretKeys].includes(e.name)
          )
            expect(e.value, `${m.metadata.name}/${c.name} ${e.name}`).toBeUndefined();
        }
      }
    }
    const secret = find(ms, 'Secret', '-secrets');
    expect(Object.keys(secret.stringData!).sort()).toEqual(
      [...secretKeys, 'POSTGRES_PASSWORD', 'REDIS_PASSWORD'].sort(),
    );
    expect(secret.stringData!.DATABASE_URL).toMatch(
      /^postgresql:\/\/poolbench:[A-Za-z0-9]{32}@pb-poolbench-postgres:5432\/poolbench$/,
    );
  });

  it('an external database gets its lab database beside it, query string kept', () => {
    const secret = find(render(...KEDA), 'Secret', '-secrets');
    expect(secret.stringData!.LAB_DATABASE_URL).toBe(
      'postgresql://poolbench:secret@db.internal:5432/poolbench_lab?sslmode=require',
    );
    expect(secret.stringData!.POSTGRES_PASSWORD).toBeUndefined();
  });

  it('with an existing Secret the chart renders none of its own and points every pod at it', () => {
    const ms = render(
      '--set',
      'web.publicUrl=https://pb.example.com',
      '--set',
      'secrets.existingSecret=mine',
    );
    expect(ms.filter((m) => m.kind === 'Secret')).toEqual([]);
    const c = podSpec(find(ms, 'Deployment', '-worker')).containers[0]!;
    expect((env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef as { name?: string }).name).toBe(
      'mine',
    );
  });

  it("runs the pod's web processes the chart says, not one per core of the node", () => {
    for (const [args, n] of [
      [[], '1'],
      [['--set', 'web.processes=3'], '3'],
    ] as const) {
      const web = podSpec(find(render(...DEFAULTS, ...args), 'Deployment', '-web'));
      expect(env(web.containers[0]!, 'POOLBENCH_WEB_PROCESSES')?.value).toBe(n);
    }
  });

  it('refuses bad values by name instead of rendering a broken release', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--set', 'web.publicUrl=https://pb.example.com'], /secrets\.secretKey is required/],
      [[...DEFAULTS, '--set', 'web.publicUrl='], /web\.publicUrl is required/],
      [
        [...DEFAULTS, '--set', 'database.bundled=false'],
        /database\.url is required when database\.bundled is false/,
      ],
      [
        [...DEFAULTS, '--set', 'worker.replikas=3'],
        /at '\/worker': additional properties 'replikas' not allowed/,
      ],
      [[...DEFAULTS, '--set', 'worker.concurrency=0'], /at '\/worker\/concurrency'/],
      [[...DEFAULTS, '--set', 'redis.url=http://redis:6379'], /at '\/redis\/url'/],
      [[...DEFAULTS, '--set', 'web.processes=0'], /at '\/web\/processes'/],
      [[...DEFAULTS, '--set', 'mail.smtpUrl=mail.example.com:25'], /at '\/mail\/smtpUrl'/],
    ];
    for (const [args, message] of cases) {
      const r = helm(['template', 'pb', chart, ...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.err).toMatch(message);
    }
  });
});
