import { parseArgs } from 'node:util';
import { CONNECTION_OPTIONS, connection } from './args';
import { createClient } from './client';
import { EXIT, UsageError } from './exit-codes';
import type { Io } from './io';
import type { Experiment } from './types';

interface Ref {
  id: string;
  name: string;
}

/** A saved baseline as GET /api/v1/baselines answers it. */
export interface SavedBaseline {
  id: string;
  name: string;
  target: Ref;
  scenario: Ref;
  experimentId: string | null;
  poolConfig: Ref | null;
  runId: string | null;
  updatedAt: string;
}

export const BASELINE_USAGE = `Usage: poolbench baseline set <name> --experiment <id> [--pool-config <id|name>]
       poolbench baseline list [--target <id|name>] [--scenario <id|name>] [--name <name>] [--json]
       poolbench baseline remove <baseline id>

Saved baselines: what "poolbench run --baseline <name>" compares each pool config x scenario with.

  set <name>                    make a finished experiment the baseline <name> (e.g. main) of its
                                target and scenarios, each pool config its own
    --experiment <id>           the experiment; "poolbench run --json" prints its id as experiment.id
    --pool-config <id|name>     save only this pool config of the experiment
  list                          the team's baselines, newest first, one a line, id first
    --target <id|name>          only this target's
    --scenario <id|name>        only this scenario's
    --name <name>               only baselines of this name
    --json                      print the answer as JSON
  remove <baseline id>          remove one (its runs stay); "list" shows the ids
  --url, --token                as for poolbench run (POOLBENCH_URL, POOLBENCH_TOKEN)`;

/** One line per baseline: id, name, target · scenario · pool config, what it points at. */
export function baselineLine(b: SavedBaseline): string {
  const source = b.runId ? `run ${b.runId}` : `experiment ${b.experimentId ?? '(deleted)'}`;
  return `${b.id}  ${b.name}  ${b.target.name} · ${b.scenario.name} · ${b.poolConfig?.name ?? '(deleted pool config)'}  ${source}, saved ${b.updatedAt.slice(0, 16).replace('T', ' ')} UTC`;
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        experiment: { type: 'string' },
        'pool-config': { type: 'string' },
        target: { type: 'string' },
        scenario: { type: 'string' },
        name: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message} (poolbench baseline --help)`);
  }
}

/** The flags each action takes; another action's flag is a usage error, not silently ignored. */
const FLAGS = {
  set: ['experiment', 'pool-config'],
  list: ['target', 'scenario', 'name', 'json'],
  remove: [],
} as const;

/**
 * `poolbench baseline set|list|remove`: the team's saved baselines over REST (POST, GET
 * /api/v1/baselines, DELETE /api/v1/baselines/{id}).
 */
export async function baselineCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${BASELINE_USAGE}\n`);
    return EXIT.pass;
  }
  const { values: v, positionals } = parse(args);
  const [action, ...rest] = positionals;
  if (action !== 'set' && action !== 'list' && action !== 'remove')
    throw new UsageError(
      `${action ? `unknown action "${action}"` : 'give an action'}: poolbench baseline set|list|remove (poolbench baseline --help)`,
    );
  const allowed: readonly string[] = [...FLAGS[action], 'url', 'token'];
  const stray = Object.keys(v).filter((k) => !allowed.includes(k) && !(k === 'json' && !v.json));
  if (stray.length)
    throw new UsageError(
      `poolbench baseline ${action} does not take ${stray.map((k) => `--${k}`).join(', ')}`,
    );
  if (action === 'list' && rest.length)
    throw new UsageError(
      'poolbench baseline list takes no arguments; narrow it with --target, --scenario, --name',
    );
  if (action !== 'list' && rest.length !== 1)
    throw new UsageError(
      action === 'set'
        ? 'give one baseline name: poolbench baseline set <name> --experiment <id>'
        : 'give one baseline id: poolbench baseline remove <baseline id> (poolbench baseline list shows them)',
    );
  if (action === 'set' && !v.experiment?.trim())
    throw new UsageError(
      '--experiment <id> is required: poolbench baseline set <name> --experiment <id>',
    );
  const { url, token } = connection(v, io.env);
  const client = createClient({ baseUrl: url, token });

  if (action === 'list') {
    const query = new URLSearchParams();
    for (const k of ['target', 'scenario', 'name'] as const) if (v[k]) query.set(k, v[k]);
    const answer = await client.get<{ baselines: SavedBaseline[] }>(`/baselines?${query}`);
    if (v.json) io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    else if (answer.baselines.length === 0)
      io.stdout.write(
        'no baselines saved yet: poolbench baseline set <name> --experiment <id>, or run --save-baseline <name>\n',
      );
    else for (const b of answer.baselines) io.stdout.write(`${baselineLine(b)}\n`);
    return EXIT.pass;
  }

  if (action === 'remove') {
    const { removed } = await client.delete<{ removed: SavedBaseline }>(
      `/baselines/${encodeURIComponent(rest[0]!)}`,
    );
    io.stdout.write(`removed ${baselineLine(removed)}\n`);
    return EXIT.pass;
  }

  // a baseline is what later runs are judged against: only from runs that have all ended
  const id = v.experiment!.trim();
  const e = await client.get<Experiment>(`/experiments/${encodeURIComponent(id)}`);
  if (!e.finished)
    throw new UsageError(
      `experiment ${e.name} (${e.id}) has ${e.progress.total - e.progress.done} of ${e.progress.total} runs not finished; wait for it (poolbench run --wait) and save it then`,
    );
  const { baselines } = await client.post<{
    baselines: Omit<SavedBaseline, 'runId' | 'updatedAt'>[];
  }>('/baselines', {
    name: rest[0],
    experimentId: e.id,
    ...(v['pool-config'] ? { poolConfig: v['pool-config'] } : {}),
  });
  for (const b of baselines)
    io.stdout.write(
      `saved baseline "${b.name}" (${b.id}): ${b.target.name} · ${b.scenario.name} · ${b.poolConfig?.name ?? '(deleted pool config)'} from experiment ${e.name}\n`,
    );
  return EXIT.pass;
}
