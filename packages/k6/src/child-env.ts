/**
 * A child process's complete environment: exactly these variables, nothing inherited. Typed as
 * the process environment `spawn` takes; some hosts' typings (Next.js) declare NODE_ENV required
 * there, which a child that must not see the parent's environment does not get.
 */
export function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return vars as NodeJS.ProcessEnv;
}
