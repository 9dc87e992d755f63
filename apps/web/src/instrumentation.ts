/** Next.js calls register() once when a server process starts (not at build time). */
export async function register() {
  // Node only: the sweeper uses Postgres and Redis clients that the edge runtime does not have.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startWebSweeper } = await import('./server/lifecycle-sweeper');
  startWebSweeper();
  // server.mjs answers from memory what it can before handing a request to Next.js
  const { fastAnswer, shellCapture } = await import('./server/fast-path');
  (globalThis as { __poolbenchFastAnswer?: typeof fastAnswer }).__poolbenchFastAnswer = fastAnswer;
  // and keeps the HTML Next.js renders for the pages it may answer so
  (globalThis as { __poolbenchShellCapture?: typeof shellCapture }).__poolbenchShellCapture =
    shellCapture;
  // and on SIGTERM, once its server has closed, lets held-back writes finish before it exits
  const { beforeExit } = await import('./server/process-wide');
  (globalThis as { __poolbenchBeforeExit?: typeof beforeExit }).__poolbenchBeforeExit = beforeExit;
}
