import { describe, expect, it } from 'vitest';
import { parseRunArgs } from './args';
import { ciOrigin } from './ci-origin';

const base = { POOLBENCH_URL: 'http://localhost:3000', POOLBENCH_TOKEN: 'pb_x' };

describe('commit, branch and build URL of a CI run', () => {
  it('come from GitHub Actions (a pull request: its head branch) and GitLab CI variables', () => {
    expect(
      ciOrigin(
        {},
        {
          GITHUB_SHA: 'abc123',
          GITHUB_REF_NAME: '42/merge',
          GITHUB_HEAD_REF: 'feature/pool',
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_REPOSITORY: 'acme/api',
          GITHUB_RUN_ID: '99',
        },
      ),
    ).toEqual({
      commit: 'abc123',
      branch: 'feature/pool',
      buildUrl: 'https://github.com/acme/api/actions/runs/99',
    });
    expect(
      ciOrigin(
        {},
        {
          CI_COMMIT_SHA: 'def456',
          CI_COMMIT_REF_NAME: 'main',
          CI_JOB_URL: 'https://gitlab.example.com/acme/api/-/jobs/7',
        },
      ),
    ).toEqual({
      commit: 'def456',
      branch: 'main',
      buildUrl: 'https://gitlab.example.com/acme/api/-/jobs/7',
    });
  });

  it('flags win over the environment; nothing known leaves the fields out', () => {
    expect(
      ciOrigin({ commit: 'f00', branch: 'x' }, { GITHUB_SHA: 'abc', GITHUB_REF_NAME: 'main' }),
    ).toEqual({ commit: 'f00', branch: 'x' });
    expect(ciOrigin({}, { GITHUB_SHA: '  ' })).toEqual({});
  });

  it('go into both start kinds', () => {
    const env = {
      ...base,
      CIRCLE_SHA1: 'c1',
      CIRCLE_BRANCH: 'dev',
      CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/api/5',
    };
    expect(parseRunArgs(['--experiment', 'nightly'], env).start).toEqual({
      kind: 'saved',
      experiment: 'nightly',
      commit: 'c1',
      branch: 'dev',
      buildUrl: 'https://circleci.com/gh/acme/api/5',
    });
    const inline = parseRunArgs(
      [
        '--target',
        'Lab',
        '--pool-config',
        'a',
        '--scenario-id',
        's1',
        '--commit',
        'deadbeef',
        '--build-url',
        'https://ci.example.com/1',
      ],
      base,
    ).start;
    expect(inline).toMatchObject({
      kind: 'inline',
      commit: 'deadbeef',
      buildUrl: 'https://ci.example.com/1',
    });
    expect(inline).not.toHaveProperty('branch');
  });
});
