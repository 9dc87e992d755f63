'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { applyScale } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { problemsOf } from '~/lib/trpc/errors';
import { formatDuration } from '~/lib/format';
import { Button } from '~/components/ui/button';
import { Dialog } from '~/components/ui/dialog';
import { Alert } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { byIdName, Checkbox, Field, Options, Select } from '~/components/ui/form';
import { TextField } from '~/components/ui/text-field';

export interface PresetCard {
  id: string;
  title: string;
  defaultScale: number;
  repeats: number;
  scaling: string;
  poolConfigs: Array<{ name: string; strategy: string }>;
}

/** Scale -> what the preset would create, computed with the same code the server uses. */
function previewAt(id: string, scale: number) {
  try {
    const p = applyScale(id, scale);
    return {
      ok: true as const,
      durationMs: p.scenarios.reduce((a, s) => a + s.estimatedDurationMs, 0),
      scenarios: p.scenarios.length,
    };
  } catch (e) {
    return { ok: false as const, error: e instanceof Error ? e.message : 'invalid scale' };
  }
}

export function ApplyPresetDialog({
  preset,
  onClose,
}: {
  preset: PresetCard | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const targets = useQuery(trpc.target.list.queryOptions());
  const [targetId, setTargetId] = useState('');
  const [scaleText, setScaleText] = useState('');
  const [createConfigs, setCreateConfigs] = useState(true);
  const scale = scaleText === '' ? (preset?.defaultScale ?? 1) : Number(scaleText);
  const preview = useMemo(() => (preset ? previewAt(preset.id, scale) : null), [preset, scale]);
  const apply = useMutation(
    trpc.scenario.applyPreset.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries();
        const q = new URLSearchParams({
          targetId: r.targetId,
          scenarioIds: r.scenarioIds.join(','),
          poolConfigIds: r.poolConfigIds.join(','),
          repeats: String(r.repeats),
          presetId: r.presetId,
          name: r.title,
        });
        onClose();
        router.push(`/experiments/new?${q.toString()}`);
      },
    }),
  );
  const chosenTarget = targetId || targets.data?.[0]?.id || '';
  return (
    <Dialog
      open={preset !== null}
      onClose={onClose}
      title={preset ? `Use preset: ${preset.title}` : ''}
      description="Creates the preset's scenarios (and pool configs) and opens a ready experiment."
    >
      {preset ? (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            apply.mutate({
              presetId: preset.id,
              scale,
              targetId: chosenTarget,
              createPoolConfigs: createConfigs,
            });
          }}
        >
          <ErrorAlert error={apply.error} />
          {targets.data?.length === 0 ? (
            <Alert tone="warning">
              Create a target first: the preset's pool configs belong to one.
            </Alert>
          ) : null}
          <Field label="Target" error={problemsOf(apply.error).targetId ?? null}>
            {(p) => (
              <Select {...p} value={chosenTarget} onChange={(e) => setTargetId(e.target.value)}>
                <Options items={targets.data} {...byIdName} />
              </Select>
            )}
          </Field>
          <TextField
            label="Scale"
            help={`${preset.scaling} 1 = the seed's original parameters; default ${preset.defaultScale}.`}
            error={
              preview && !preview.ok
                ? 'must be greater than 0 and at most 1'
                : (problemsOf(apply.error).scale ?? null)
            }
            value={scaleText}
            onValue={setScaleText}
            inputMode="decimal"
            placeholder={String(preset.defaultScale)}
          />
          {preview?.ok ? (
            <p
              className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700"
              data-testid="preset-estimate"
            >
              {preview.scenarios} scenario{preview.scenarios === 1 ? '' : 's'}, about{' '}
              <strong>{formatDuration(preview.durationMs)}</strong> of load per run.
            </p>
          ) : null}
          <Checkbox
            label={`Also create its pool configs (${preset.poolConfigs.map((c) => c.name).join(', ')})`}
            description="Untick to pick existing pool configs of the target in the experiment form."
            checked={createConfigs}
            onChange={(e) => setCreateConfigs(e.target.checked)}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={apply.isPending}
              disabled={!chosenTarget || !preview?.ok}
            >
              Create and set up experiment
            </Button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
