import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { USAGE } from './args';
import { BASELINE_USAGE } from './baseline';
import { docBlocks, DOCS_CI, DOCS_CI_DIR, shellBlocks } from './testing/doc-blocks';

/**
 * What of docs/ci.md can be checked without a running PoolBench: every flag of `run --help` is in
 * its flag table, the CI templates are valid YAML and the same as docs/ci/*.yml. Its shell examples
 * run against the stack in e2e/docs-ci.e2e.test.ts.
 */
const doc = readFileSync(DOCS_CI, 'utf8');

describe('docs/ci.md', () => {
  it('documents every flag the CLI accepts, in the flag table', () => {
    const flags = [...new Set([...USAGE.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]!))];
    expect(flags.length).toBeGreaterThan(20);
    const table = doc.slice(doc.indexOf('### Every flag'), doc.indexOf('### Exit codes'));
    expect(flags.filter((f) => !table.includes(`\`${f}`))).toEqual([]);
  });

  it('documents every flag and action of poolbench baseline, in its table', () => {
    const flags = [...new Set([...BASELINE_USAGE.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]!))];
    expect(flags).toEqual(
      expect.arrayContaining(['--experiment', '--pool-config', '--target', '--name', '--json']),
    );
    const table = doc.slice(doc.indexOf('### `poolbench baseline`'), doc.indexOf('### Exit codes'));
    expect(table.length).toBeGreaterThan(100);
    expect(flags.filter((f) => !table.includes(f))).toEqual([]);
    for (const action of ['set <name>', 'list', 'remove <baseline id>'])
      expect(table).toContain(`| \`${action}`);
  });

  it('annotates its shell examples: each is run, an env block only sets the placeholders', () => {
    // the names of a team's own target and pool configs are variables, never written out
    for (const b of shellBlocks().filter((x) => !x.env))
      expect(b.code, `line ${b.line}`).not.toMatch(/Lab target|conns? x 1 instance/);
    const sh = shellBlocks();
    expect(sh.length).toBeGreaterThanOrEqual(8);
    for (const b of sh.filter((x) => x.env)) {
      expect(
        b.code
          .trim()
          .split('\n')
          .every((l) =>
            /^export (POOLBENCH_URL|POOLBENCH_TOKEN|TARGET|POOL_CONFIG|SMALL_POOL_CONFIG)=/.test(l),
          ),
        `line ${b.line}`,
      ).toBe(true);
    }
    // the exit codes the examples show are the ones the exit-code table explains
    expect(new Set(sh.map((b) => b.exit))).toEqual(new Set([0, 1, 2, 3]));
  });

  it.each([
    ['github-actions.yml', 'jobs'],
    ['gitlab-ci.yml', 'poolbench'],
  ])('docs/ci/%s is valid YAML and is the block docs/ci.md shows', (file, key) => {
    const text = readFileSync(new URL(file, DOCS_CI_DIR), 'utf8');
    const parsed = parse(text, { strict: true, uniqueKeys: true }) as Record<string, unknown>;
    expect(parsed).toHaveProperty(key);
    expect(
      docBlocks()
        .filter((b) => b.lang === 'yaml')
        .map((b) => b.code),
    ).toContain(text);
  });

  it('the GitHub job runs the CLI with secrets from the repository, the GitLab job publishes JUnit', () => {
    const gh = parse(readFileSync(new URL('github-actions.yml', DOCS_CI_DIR), 'utf8')) as {
      jobs: { poolbench: { env: Record<string, string>; steps: { run?: string }[] } };
    };
    expect(gh.jobs.poolbench.env).toEqual({
      POOLBENCH_URL: '${{ vars.POOLBENCH_URL }}',
      POOLBENCH_TOKEN: '${{ secrets.POOLBENCH_TOKEN }}',
    });
    expect(gh.jobs.poolbench.steps.some((s) => s.run?.includes('node poolbench.mjs run'))).toBe(
      true,
    );
    const gl = parse(readFileSync(new URL('gitlab-ci.yml', DOCS_CI_DIR), 'utf8')) as {
      poolbench: { artifacts: { reports: { junit: string } } };
    };
    expect(gl.poolbench.artifacts.reports.junit).toBe('poolbench.xml');
  });
});
