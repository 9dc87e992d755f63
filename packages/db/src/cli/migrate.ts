import { migrate } from '../migrate';

try {
  const r = await migrate({ log: (m) => console.log(`[db] ${m}`) });
  console.log(`[db] migrations: ${r.applied.length} applied, ${r.alreadyApplied.length} already up to date`);
} catch (err) {
  console.error(`[db] migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
