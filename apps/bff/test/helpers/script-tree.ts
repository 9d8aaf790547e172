import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

const run = promisify(execFile);
export const REPO = path.resolve(import.meta.dirname, '../../../..');
const tsx = path.join(REPO, 'node_modules/.bin/tsx');

/**
 * A lint script of the repository's `scripts/` run from the root of a scratch tree holding only `files`: its exit
 * code and what it printed (stdout on success, stderr on failure). The trees are removed after the test file.
 */
export const scriptOnTree = (script: string) => {
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });
  return async (files: Record<string, string>): Promise<{ code: number; output: string }> => {
    const root = mkdtempSync(path.join(tmpdir(), 'lint-tree-'));
    copies.push(root);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return run(tsx, [path.join(REPO, script)], { cwd: root }).then(
      ({ stdout }) => ({ code: 0, output: stdout }),
      (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
    );
  };
};
