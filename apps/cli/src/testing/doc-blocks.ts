import { readFileSync } from 'node:fs';

export const DOCS_CI = new URL('../../../../docs/ci.md', import.meta.url);
export const DOCS_CI_DIR = new URL('../../../../docs/ci/', import.meta.url);

export interface DocBlock {
  /** the fence's language: sh, yaml, ... */
  lang: string;
  /** `sh exit=1`: the exit code the example must end with (default 0) */
  exit: number;
  /** `sh env`: only sets the placeholders POOLBENCH_URL / POOLBENCH_TOKEN, which the doc test supplies */
  env: boolean;
  code: string;
  /** 1-based line of the opening fence, for messages */
  line: number;
}

/**
 * The fenced code blocks of a Markdown file with their info strings: ```sh exit=2 is an example
 * that must exit 2. Only top-level ``` fences (the docs use no nesting or ~~~).
 */
export function docBlocks(path: URL = DOCS_CI): DocBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)?(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (i >= lines.length)
      throw new Error(`${path.pathname}:${start + 1}: code block is never closed`);
    const info = (open[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const exit = info.find((w) => w.startsWith('exit='));
    const unknown = info.filter((w) => w !== 'env' && !w.startsWith('exit='));
    if (unknown.length)
      throw new Error(
        `${path.pathname}:${start + 1}: unknown info words ${unknown.join(' ')} (use exit=N or env)`,
      );
    blocks.push({
      lang: open[1] ?? '',
      exit: exit ? Number(exit.slice(5)) : 0,
      env: info.includes('env'),
      code: `${body.join('\n')}\n`,
      line: start + 1,
    });
  }
  return blocks;
}

export const shellBlocks = () =>
  docBlocks().filter((b) => b.lang === 'sh' || b.lang === 'bash' || b.lang === 'shell');
