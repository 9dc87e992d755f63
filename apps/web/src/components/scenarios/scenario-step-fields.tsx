'use client';

import { Plus } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { Input, Select } from '~/components/ui/form';
import type { CheckRow, ExtractRow } from './scenario-form-values';

const EXPR_LABEL: Record<ExtractRow['from'], string> = {
  json: 'JSON path',
  header: 'Header name',
  regex: 'Regular expression',
};
const EXPR_PLACEHOLDER: Record<ExtractRow['from'], string> = {
  json: 'token',
  header: 'X-Request-Id',
  regex: '"id":(\\d+)',
};
const CHECK_LABEL: Record<CheckRow['kind'], string> = {
  status: 'status is',
  'body-contains': 'body contains',
  'json-equals': 'JSON path equals',
  'latency-below': 'latency below (ms)',
};

function RowError({ message }: { message: string | null }) {
  return message ? (
    <p className="text-xs text-red-700" role="alert">
      {message}
    </p>
  ) : null;
}

/**
 * What a step takes from its response: each row stores a value under a name that later steps use
 * as {{name}} in their path, query, headers or JSON body.
 */
export function ExtractRows({
  step,
  rows,
  onChange,
  err,
}: {
  step: number;
  rows: ExtractRow[];
  onChange: (rows: ExtractRow[]) => void;
  err: (path: string) => string | null;
}) {
  const set = (i: number, patch: Partial<ExtractRow>) =>
    onChange(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <div className="space-y-1.5">
      <span className="text-xs text-slate-500">
        Take from the response (use as <code>{'{{name}}'}</code> in later steps):
      </span>
      {rows.map((e, i) => (
        <div key={i}>
          <div className="flex flex-wrap items-center gap-1">
            <Input
              aria-label={`Step ${step + 1} variable ${i + 1} name`}
              className="h-8 w-28"
              placeholder="token"
              value={e.name}
              onChange={(ev) => set(i, { name: ev.target.value })}
            />
            <span className="text-slate-500">from</span>
            <Select
              aria-label={`Step ${step + 1} variable ${i + 1} source`}
              className="h-8 w-36"
              value={e.from}
              onChange={(ev) => set(i, { from: ev.target.value as ExtractRow['from'] })}
            >
              <option value="json">JSON path</option>
              <option value="header">header</option>
              <option value="regex">regex</option>
            </Select>
            <Input
              aria-label={`Step ${step + 1} variable ${i + 1} ${EXPR_LABEL[e.from].toLowerCase()}`}
              className="h-8 w-48"
              placeholder={EXPR_PLACEHOLDER[e.from]}
              value={e.expr}
              onChange={(ev) => set(i, { expr: ev.target.value })}
            />
            <RemoveRowButton
              label={`Remove step ${step + 1} variable ${i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </div>
          <RowError
            message={
              err(`requests.${step}.extract.${i}.name`) ?? err(`requests.${step}.extract.${i}.expr`)
            }
          />
        </div>
      ))}
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Add a variable to step ${step + 1}`}
        onClick={() => onChange([...rows, { name: '', from: 'json', expr: '' }])}
      >
        <Plus className="size-3.5" /> variable
      </Button>
    </div>
  );
}

/** Checks on a response; a request that fails one counts as failed in the run's error rate. */
export function CheckRows({
  step,
  rows,
  onChange,
  err,
}: {
  step: number;
  rows: CheckRow[];
  onChange: (rows: CheckRow[]) => void;
  err: (path: string) => string | null;
}) {
  const set = (i: number, patch: Partial<CheckRow>) =>
    onChange(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <div className="space-y-1.5">
      <span className="text-xs text-slate-500">
        Checks (a failed check makes the request count as failed):
      </span>
      {rows.map((c, i) => (
        <div key={i}>
          <div className="flex flex-wrap items-center gap-1">
            <Select
              aria-label={`Request ${step + 1} check ${i + 1} kind`}
              className="h-8 w-44"
              value={c.kind}
              onChange={(ev) => set(i, { kind: ev.target.value as CheckRow['kind'] })}
            >
              {Object.entries(CHECK_LABEL).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </Select>
            {c.kind === 'json-equals' ? (
              <Input
                aria-label={`Request ${step + 1} check ${i + 1} JSON path`}
                className="h-8 w-36"
                placeholder="user.name"
                value={c.path ?? ''}
                onChange={(ev) => set(i, { path: ev.target.value })}
              />
            ) : null}
            <Input
              aria-label={`Request ${step + 1} check ${i + 1} value`}
              className="h-8 w-48"
              placeholder={c.kind === 'status' ? '200' : c.kind === 'latency-below' ? '500' : ''}
              value={c.value}
              onChange={(ev) => set(i, { value: ev.target.value })}
            />
            <RemoveRowButton
              label={`Remove request ${step + 1} check ${i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </div>
          <RowError
            message={
              err(`requests.${step}.checks.${i}.value`) ?? err(`requests.${step}.checks.${i}.path`)
            }
          />
        </div>
      ))}
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Add a check to request ${step + 1}`}
        onClick={() => onChange([...rows, { kind: 'status', value: '200' }])}
      >
        <Plus className="size-3.5" /> check
      </Button>
    </div>
  );
}
