import { z } from 'zod';
import { IdSchema } from '~/lib/schemas/ids';
import { saveBaseline } from '~/server/services/ci/save-baseline';
import { listTeamBaselines, removeTeamBaseline } from '~/server/services/ci/team-baselines';
import { op, type Operation } from '../operation';
import { IdOrName, Iso, NullableRef, Ref } from '../schemas';

export const SaveBaselineSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._/-]+$/, 'letters, digits, . _ / - only')
    .default('main'),
  experimentId: IdSchema,
  poolConfig: IdOrName.optional().describe(
    'save only this pool config of the experiment; without it every config becomes its own baseline',
  ),
});

const BaselineRow = z.object({
  id: z.string(),
  name: z.string(),
  target: Ref,
  scenario: Ref,
  experimentId: z.string().nullable(),
  poolConfig: NullableRef,
});

export const BaselinesSchema = z.object({ baselines: z.array(BaselineRow) });

/** A saved baseline as the list and the removal show it. */
const SavedBaseline = BaselineRow.extend({
  runId: z
    .string()
    .nullable()
    .describe('a baseline saved from one run in the web app names it; null for an experiment'),
  updatedAt: Iso.describe('when the baseline was last saved or moved'),
});

export const BaselineListQuery = z.object({
  target: IdOrName.optional().describe('only the baselines of this target (id or exact name)'),
  scenario: IdOrName.optional().describe('only the baselines of this scenario (id or exact name)'),
  name: z
    .string()
    .min(1)
    .max(64)
    // the characters a baseline's name may have, wherever it was saved
    .regex(/^[\w./-]+$/, 'letters, digits, - _ . / only')
    .optional()
    .describe('only the baselines of this name, e.g. main'),
});

export const BaselineListSchema = z.object({
  baselines: z.array(SavedBaseline).describe('newest first'),
});

export const BaselineRemovedSchema = z.object({
  removed: SavedBaseline.describe('the baseline that was removed'),
});

/** Named baselines: save, list, remove. */
export const BASELINE_OPERATIONS: Operation[] = [
  op({
    method: 'POST',
    path: '/baselines',
    operationId: 'saveBaseline',
    scope: 'runs:write',
    status: 200,
    summary: 'Make an experiment the named baseline (e.g. main) of its target and scenarios',
    body: SaveBaselineSchema,
    bodyName: 'SaveBaseline',
    response: BaselinesSchema,
    responseName: 'Baselines',
    handle: ({ deps, principal, body }) =>
      saveBaseline(deps.db, { teamId: principal.teamId, userId: principal.createdById, ...body }),
  }),
  op({
    method: 'GET',
    path: '/baselines',
    operationId: 'listBaselines',
    scope: 'runs:read',
    status: 200,
    summary: "The team's saved baselines, newest first",
    description:
      'Each baseline is one pool config of a target under one scenario, by name (e.g. main): what `compare?baseline=` compares that cell with. `target`, `scenario` and `name` narrow the list.',
    query: BaselineListQuery,
    response: BaselineListSchema,
    responseName: 'BaselineList',
    handle: ({ deps, principal, query }) => listTeamBaselines(deps.db, principal.teamId, query),
  }),
  op({
    method: 'DELETE',
    path: '/baselines/{id}',
    operationId: 'removeBaseline',
    scope: 'runs:write',
    status: 200,
    summary: 'Remove a saved baseline (its runs and experiment stay)',
    description:
      'A comparison with this name for its target, scenario and pool config then answers no-baseline until one is saved again.',
    response: BaselineRemovedSchema,
    responseName: 'BaselineRemoved',
    handle: ({ deps, principal, params }) =>
      removeTeamBaseline(deps.db, principal.teamId, params.id!),
  }),
];
