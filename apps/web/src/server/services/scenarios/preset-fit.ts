import { poolConfigProblemsOnTarget, runtimeOf, type Preset } from '@poolbench/scenarios';
import { LabEnvironmentSchema, resolveLabEnvironment } from '@poolbench/contracts';

/**
 * Why a seed preset does not suit a managed target (null = it does): one of its pool configs
 * cannot run on the target's runtime and database, or none of them runs the target's own runtime
 * (a preset of another stack's configs, e.g. Go, Bun and PHP-FPM, on a Java target).
 */
export function presetMisfit(
  preset: Pick<Preset, 'id' | 'poolConfigs'>,
  targetEnvironment: unknown,
): string | null {
  for (const pc of preset.poolConfigs) {
    const [problem] = poolConfigProblemsOnTarget(pc.config, targetEnvironment);
    if (problem) return `its pool config "${pc.name}" cannot run here: ${problem.message}`;
  }
  const target = LabEnvironmentSchema.safeParse(targetEnvironment ?? {});
  const own = runtimeOf(target.success ? target.data : undefined);
  const runs = preset.poolConfigs.some(
    (pc) =>
      runtimeOf(resolveLabEnvironment(target.success ? target.data : {}, pc.config.environment)) ===
      own,
  );
  return runs ? null : `none of its pool configs runs on the target's own ${own} runtime`;
}
