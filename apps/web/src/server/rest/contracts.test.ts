import { describe, expect, it } from 'vitest';
import {
  ChangeEstimateSchema,
  DirectionSchema,
  SecondsWindowSchema,
  VerdictSchema,
} from '~/server/api/routers/compare.types';
import { RunProgressSchema } from '~/server/api/routers/experiment.types';
import { ComparisonSchema } from './resources/comparisons';
import { ExperimentSchema } from './resources/experiments';

/**
 * Where a REST answer carries the same thing as a tRPC procedure, it is the procedure's own
 * schema (issue 18), so the two cannot drift; the OpenAPI document is generated from them.
 */
describe("REST contracts reuse the procedures' output schemas", () => {
  it("experiment progress is the experiment procedures' RunProgressSchema", () => {
    expect(ExperimentSchema.shape.progress).toBe(RunProgressSchema);
  });

  it("a comparison's verdict, direction, change and window are the compare procedures' schemas", () => {
    const metric = ComparisonSchema.shape.cells.element.shape.metrics.element.shape;
    expect(metric.verdict).toBe(VerdictSchema);
    expect(metric.direction).toBe(DirectionSchema);
    expect(metric.changePercent.unwrap()).toBe(ChangeEstimateSchema);
    expect(ComparisonSchema.shape.window.unwrap()).toBe(SecondsWindowSchema);
  });
});
