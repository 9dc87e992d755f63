import { migrate, pendingMigrations } from '../migrate';

// `migrate`            applies every pending migration (the release's migration Job, `make up`).
// `migrate --wait[=S]` applies nothing: waits up to S seconds (default 600) until the database has
//                      every migration of this build, then exits 0; exit 1 on timeout. Web and
//                      worker pods run it as an init container, so they never start on an old schema.
const waitArg = process.argv.slice(2).find((a) => a === '--wait' || a.startsWith('--wait='));

async function waitForSchema(timeoutS: number): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  let last = '';
  for (;;) {
    let pending: string[] | null = null;
    try {
      pending = await pendingMigrations();
    } catch (err) {
      last = `database not reachable: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (pending && pending.length === 0) {
      console.log('[db] schema is up to date');
      return;
    }
    if (pending) last = `${pending.length} migration(s) pending, first ${pending[0]}`;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutS} s: ${last}`);
    console.log(`[db] waiting for the migration job: ${last}`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

try {
  if (waitArg) {
    const s = waitArg.includes('=') ? Number(waitArg.split('=')[1]) : 600;
    if (!Number.isInteger(s) || s <= 0)
      throw new Error(`--wait takes whole seconds > 0, got "${waitArg.split('=')[1]}"`);
    await waitForSchema(s);
  } else {
    const r = await migrate({ log: (m) => console.log(`[db] ${m}`) });
    console.log(
      `[db] migrations: ${r.applied.length} applied, ${r.alreadyApplied.length} already up to date`,
    );
  }
} catch (err) {
  console.error(`[db] migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
