'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileCode, Upload } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { z } from 'zod';
import {
  DEFAULT_SCRIPT_MAX_DURATION_MS,
  INSIGHT_THRESHOLD_EXPR,
  isInsightMetric,
  LIMITS,
} from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { formatDuration } from '~/lib/format';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { FormActions } from '~/components/ui/form-actions';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { Field, Input, Textarea } from '~/components/ui/form';
import { TextField } from '~/components/ui/text-field';
import { ScriptScenariosTable, scriptNeeds } from './script-scenarios-table';

export interface ScriptInitial {
  id: string;
  name: string;
  scenario: Record<string, unknown>;
}

const EXAMPLE = `import http from 'k6/http';
import { check } from 'k6';

export const options = {
  scenarios: {
    browse: { executor: 'constant-vus', vus: 5, duration: '20s' },
  },
  thresholds: { http_req_failed: ['rate<0.01'] },
};

export default function () {
  const res = http.get(\`\${__ENV.BASE_URL}/health\`);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
`;

/** An error as one line: a refused field's own message (named), or the error's. */
function errorText(err: unknown): string {
  const problems = Object.entries(problemsOf(err));
  return problems.length
    ? problems.map(([path, message]) => `${path}: ${message}`).join('; ')
    : messageOf(err);
}

const StoredThresholds = z.array(z.looseObject({ metric: z.string() })).catch([]);

/** A stored scenario's insight thresholds (`insight:<code>` is "absent"). */
function insightThresholdsOf(v: unknown) {
  return StoredThresholds.parse(v ?? [])
    .map((t) => t.metric)
    .filter(isInsightMetric)
    .map((metric) => ({ metric, expr: INSIGHT_THRESHOLD_EXPR }));
}

const stringRecord = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null
    ? Object.fromEntries(
        Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};

/**
 * A team's own k6 script: pasted or uploaded, with the files it opens, checked in the sandbox
 * (k6's options and scenarios shown before saving, or k6's error with its line), then saved as a
 * scenario that experiments run like any other.
 */
export function ScriptEditor({ initial }: { initial?: ScriptInitial }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState(initial?.name ?? '');
  const [source, setSource] = useState(
    typeof initial?.scenario.source === 'string' ? initial.scenario.source : EXAMPLE,
  );
  const insightThresholds = insightThresholdsOf(initial?.scenario.thresholds);
  const [files, setFiles] = useState<Record<string, string>>(stringRecord(initial?.scenario.files));
  // the run's limits: kept from the stored scenario, so saving an edit never resets them
  const [stopAfterS, setStopAfterS] = useState(
    String(
      (typeof initial?.scenario.maxDurationMs === 'number'
        ? initial.scenario.maxDurationMs
        : DEFAULT_SCRIPT_MAX_DURATION_MS) / 1000,
    ),
  );
  const readyPath =
    typeof initial?.scenario.readyPath === 'string' ? initial.scenario.readyPath : undefined;
  const scriptInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const inspect = useMutation(trpc.scenario.inspectScript.mutationOptions());
  const save = useMutation(
    trpc.scenario.saveScript.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.scenario.list.queryKey() });
        router.push('/scenarios');
      },
    }),
  );
  const checked = inspect.data;
  // the script's own thresholds, plus the insight thresholds the team added to the scenario
  // ("Fail future runs on this"), which no script states and a save must not drop
  const thresholds = checked?.ok ? [...checked.thresholds.applied, ...insightThresholds] : [];
  const edited = () => inspect.reset();
  const saveProblems = save.isError ? problemsOf(save.error) : {};
  const stopAfterMs = Math.round(Number(stopAfterS) * 1000);

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
      <div className="space-y-6">
        <Card>
          <CardHeader
            title="Your k6 script"
            description="An ES module with a default function and options (scenarios, thresholds); setup() and teardown() run as usual. __ENV.BASE_URL is the target's base URL. It runs in a sandbox that can reach nothing but the run's target."
          />
          <CardBody className="space-y-4">
            <Field label="Name">
              {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
            <Field
              label="Script"
              help={`At most ${LIMITS.maxScriptBytes / 1024} KiB. Only k6's own modules can be imported, and local files listed below.`}
            >
              {(p) => (
                <Textarea
                  {...p}
                  rows={18}
                  spellCheck={false}
                  className="font-mono text-xs"
                  value={source}
                  onChange={(e) => {
                    setSource(e.target.value);
                    edited();
                  }}
                />
              )}
            </Field>
            <input
              ref={scriptInput}
              type="file"
              accept=".js,.mjs,text/javascript"
              className="sr-only"
              aria-label="Script file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f)
                  void f.text().then((t) => {
                    setSource(t);
                    if (!name) setName(f.name.replace(/\.m?js$/, ''));
                    edited();
                  });
                e.target.value = '';
              }}
            />
            <Button size="sm" variant="secondary" onClick={() => scriptInput.current?.click()}>
              <Upload className="size-3.5" /> Upload a script
            </Button>
            <div className="max-w-xs">
              <TextField
                label="Stop the run after (seconds)"
                help={`Whatever the script's scenarios say; at most ${LIMITS.maxDurationMs / 60_000} minutes.`}
                error={saveProblems['script.maxDurationMs']}
                value={stopAfterS}
                onValue={setStopAfterS}
                type="number"
                min={1}
                max={LIMITS.maxDurationMs / 1000}
              />
            </div>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Files the script opens"
            description={`open('./users.csv') in the script reads a file listed here; at most ${LIMITS.maxScriptFiles} files, ${LIMITS.maxScriptFilesBytes / 1024} KiB together.`}
            actions={
              <Button size="sm" variant="ghost" onClick={() => fileInput.current?.click()}>
                <Upload className="size-3.5" /> Add a file
              </Button>
            }
          />
          <CardBody>
            <input
              ref={fileInput}
              type="file"
              className="sr-only"
              aria-label="Data file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f)
                  void f.text().then((t) => {
                    setFiles((x) => ({ ...x, [f.name]: t }));
                    edited();
                  });
                e.target.value = '';
              }}
            />
            {Object.keys(files).length === 0 ? (
              <p className="text-sm text-slate-500">No files.</p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm">
                {Object.entries(files).map(([n, c]) => (
                  <li key={n} className="flex items-center justify-between py-1.5">
                    <span className="font-mono">
                      {n}{' '}
                      <span className="text-slate-500">
                        ({new TextEncoder().encode(c).length.toLocaleString('en-US')} bytes)
                      </span>
                    </span>
                    <RemoveRowButton
                      label={`Remove ${n}`}
                      onClick={() => {
                        setFiles((x) =>
                          Object.fromEntries(Object.entries(x).filter(([k]) => k !== n)),
                        );
                        edited();
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>

        {save.isError ? (
          <Alert tone="error" title="Could not save the script">
            {errorText(save.error)}
          </Alert>
        ) : null}
        <FormActions>
          <Button
            variant="secondary"
            loading={inspect.isPending}
            onClick={() => inspect.mutate({ source, files })}
          >
            Check script
          </Button>
          <Button
            disabled={!checked?.ok || !name.trim()}
            loading={save.isPending}
            onClick={() =>
              save.mutate({
                ...(initial ? { id: initial.id } : {}),
                name: name.trim(),
                script: {
                  template: 'k6-script',
                  source,
                  files,
                  thresholds,
                  maxDurationMs: stopAfterMs,
                  ...(readyPath !== undefined ? { readyPath } : {}),
                },
              })
            }
          >
            {initial ? 'Save script' : 'Save as scenario'}
          </Button>
        </FormActions>
      </div>

      <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start">
        <Card data-testid="script-inspection">
          <CardHeader
            title="What k6 will run"
            description="Checked in the sandbox, without network, before anything is saved."
          />
          <CardBody className="space-y-3 text-sm">
            {inspect.isError ? (
              <Alert tone="error" title="Could not check the script">
                {errorText(inspect.error)}
              </Alert>
            ) : !checked ? (
              <p className="text-slate-500">
                <FileCode className="mr-1 inline size-4" />
                Check the script to see its scenarios and thresholds.
              </p>
            ) : !checked.ok ? (
              <Alert tone="error" title="k6 refused the script">
                <pre className="whitespace-pre-wrap font-mono text-xs" data-testid="script-error">
                  {checked.error}
                </pre>
              </Alert>
            ) : (
              <>
                <p>{scriptNeeds(checked.inspected)}</p>
                <ScriptScenariosTable rows={checked.scenarios} />
                <div>
                  <p className="font-medium text-slate-800">Thresholds</p>
                  {checked.thresholds.applied.length === 0 &&
                  checked.thresholds.skipped.length === 0 ? (
                    <p className="text-slate-500">None.</p>
                  ) : null}
                  <ul className="space-y-0.5" data-testid="script-thresholds">
                    {checked.thresholds.applied.map((t) => (
                      <li key={`${t.metric}${t.expr}`}>
                        <code>
                          {t.metric} {t.expr}
                        </code>{' '}
                        <span className="text-slate-500">evaluated by PoolBench on the run</span>
                      </li>
                    ))}
                    {checked.thresholds.skipped.map((t) => (
                      <li key={`${t.metric}${t.expr}`} className="text-amber-800">
                        <code>
                          {t.metric} {t.expr}
                        </code>{' '}
                        not evaluated: {t.reason}
                      </li>
                    ))}
                  </ul>
                </div>
                {Number.isFinite(stopAfterMs) && stopAfterMs > 0 ? (
                  <p className="text-xs text-slate-500">
                    Stopped after {formatDuration(stopAfterMs)} at the latest.
                  </p>
                ) : null}
              </>
            )}
          </CardBody>
        </Card>
      </aside>
    </div>
  );
}
