import { describe, expect, it } from 'vitest';
import { appRouter } from './root';

/**
 * Typed outputs (issue 18): every procedure declares `.output()` from its `<router>.types.ts`, so
 * the client's types come from one schema and tRPC checks every answer. outputs-match.typecheck.ts
 * checks (with tsc) that each schema names exactly what its service returns.
 */
describe('tRPC procedures declare their output schema', () => {
  const procedures = Object.entries(appRouter._def.procedures).map(([path, p]) => {
    const def: unknown = Reflect.get(p, '_def');
    return {
      path,
      typed: typeof def === 'object' && def !== null && Reflect.get(def, 'output') !== undefined,
    };
  });

  it('every procedure has .output()', () => {
    expect(procedures.length).toBeGreaterThan(60);
    expect(procedures.filter((p) => !p.typed).map((p) => p.path)).toEqual([]);
  });
});
