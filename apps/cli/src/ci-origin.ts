/** Where a CI-started experiment came from; each field is left out when nothing says it. */
export interface CiOrigin {
  commit?: string;
  branch?: string;
  buildUrl?: string;
}

const first = (...vals: Array<string | undefined>) =>
  vals.map((v) => v?.trim()).find((v) => v) || undefined;

/**
 * The commit, branch and job URL from the flags, else from the CI's own variables: GitHub Actions,
 * GitLab CI, CircleCI, Buildkite, Azure Pipelines, Jenkins, and the generic GIT_COMMIT/GIT_BRANCH
 * pair. A pull request's branch is its head branch (GITHUB_HEAD_REF), not the merge ref.
 */
export function ciOrigin(
  flags: { commit?: string; branch?: string; buildUrl?: string },
  env: NodeJS.ProcessEnv,
): CiOrigin {
  const githubRun =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const azureRun =
    env.SYSTEM_COLLECTIONURI && env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID
      ? `${env.SYSTEM_COLLECTIONURI}${env.SYSTEM_TEAMPROJECT}/_build/results?buildId=${env.BUILD_BUILDID}`
      : undefined;
  const out: CiOrigin = {
    commit: first(
      flags.commit,
      env.GITHUB_SHA,
      env.CI_COMMIT_SHA,
      env.CIRCLE_SHA1,
      env.BUILDKITE_COMMIT,
      env.BUILD_SOURCEVERSION,
      env.GIT_COMMIT,
    ),
    branch: first(
      flags.branch,
      env.GITHUB_HEAD_REF,
      env.GITHUB_REF_NAME,
      env.CI_COMMIT_REF_NAME,
      env.CIRCLE_BRANCH,
      env.BUILDKITE_BRANCH,
      env.BUILD_SOURCEBRANCHNAME,
      env.GIT_BRANCH,
    ),
    buildUrl: first(
      flags.buildUrl,
      githubRun,
      env.CI_JOB_URL,
      env.CIRCLE_BUILD_URL,
      env.BUILDKITE_BUILD_URL,
      azureRun,
      env.BUILD_URL,
    ),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}
