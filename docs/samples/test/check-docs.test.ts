import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repo, 'scripts/check-docs.mjs');
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** scripts/check-docs.mjs (part of pnpm lint) over a copy of README.md and docs/, after `change` edits the copy. */
const checkAfter = async (change: (root: string) => void) => {
  const root = mkdtempSync(path.join(tmpdir(), 'docs-'));
  copies.push(root);
  cpSync(path.join(repo, 'README.md'), path.join(root, 'README.md'));
  cpSync(path.join(repo, 'docs'), path.join(root, 'docs'), { recursive: true, filter: (from) => !from.includes('node_modules') });
  // Pages name the tests running their blocks: browser journeys and API tests outside docs/.
  for (const tests of ['e2e/test', 'apps/bff/test', 'apps/widget/test']) {
    cpSync(path.join(repo, tests), path.join(root, tests), { recursive: true });
  }
  change(root);
  return run(process.execPath, [script], { cwd: root }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
  );
};

describe('the docs check (scripts/check-docs.mjs, part of pnpm lint)', () => {
  it('holds on the docs as they are', async () => {
    expect((await checkAfter(() => {})).code).toBe(0);
  });

  it('fails when a sample file changes and the page showing it does not', async () => {
    const result = await checkAfter((root) => appendFileSync(path.join(root, 'docs/samples/src/read-score.ts'), '// changed\n'));
    expect(result.code).toBe(1);
    expect(result.output).toContain('differs from the file');
  });

  it('fails on a code block that does not say how it is kept true', async () => {
    const result = await checkAfter((root) =>
      appendFileSync(path.join(root, 'docs/partner/alerts.md'), '\n```ts\nclient.call("nope")\n```\n'),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('docs/partner/alerts.md');
  });

  it('fails on a dead link and on a README over 10 KB', async () => {
    const result = await checkAfter((root) => {
      appendFileSync(path.join(root, 'docs/partner/api.md'), '\nSee [gone](gone.md).\n');
      const readme = path.join(root, 'README.md');
      writeFileSync(readme, readFileSync(readme, 'utf8') + 'x'.repeat(10_000));
    });
    expect(result.output).toContain('link to gone.md leads nowhere');
    expect(result.output).toMatch(/README.md is \d+ bytes/);
  });
});
