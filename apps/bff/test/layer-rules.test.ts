import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repoRoot, 'scripts/check-layers.mjs');
const source = path.join(repoRoot, 'apps/bff/src');

/** The check CI runs (`pnpm lint`), over a copy of the source with one file changed. */
const checkWith = async (file: string, content: string) => {
  const copy = mkdtempSync(path.join(tmpdir(), 'layers-'));
  copies.push(copy);
  cpSync(source, copy, { recursive: true });
  writeFileSync(path.join(copy, file), content, { flag: 'a' });
  return run(process.execPath, [script, copy]).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
  );
};
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

describe('the layer rules (scripts/check-layers.mjs, part of pnpm lint)', () => {
  it('hold on the source as it is', async () => {
    const { stdout } = await run(process.execPath, [script, source]);
    expect(stdout).toMatch(/Layers hold/);
  });

  it('fail when a module reaches into another module past its service.ts', async () => {
    const result = await checkWith('modules/offers/ranking.ts', "\nexport { insertScores } from '../credit/repo.ts';\n");
    expect(result.code).toBe(1);
    expect(result.output).toContain('modules/offers/ranking.ts imports modules/credit/repo.ts');
  });

  it('fail when http/ imports a module, or a neutral layer imports http/ or a module', async () => {
    const fromHttp = await checkWith('http/route.ts', "\nimport '../modules/users/service.ts';\n");
    expect(fromHttp.code).toBe(1);
    expect(fromHttp.output).toContain('http/ must not import modules');
    const fromCore = await checkWith('core/api-error.ts', "\nimport type { Pagination } from '../http/envelope.ts';\n");
    expect(fromCore.output).toContain('core/ is a neutral layer');
  });

  it('fail when a repo imports http/', async () => {
    const result = await checkWith(
      'modules/users/repo.ts',
      "\nimport type { PreparedResponse } from '../../http/error-response.ts';\n",
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('modules/users/repo.ts imports http/error-response.ts: a repo must not import http/');
    const fromLogRepo = await checkWith('modules/webhooks/log-repo.ts', "\nimport { send } from '../../http/route.ts';\n");
    expect(fromLogRepo.output).toContain('modules/webhooks/log-repo.ts imports http/route.ts: a repo must not import http/');
  });

  it('fail on an import cycle between modules, even through service.ts', async () => {
    const result = await checkWith('modules/users/service.ts', "\nexport { getCreditScore } from '../credit/service.ts';\n");
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/import cycle between modules: (users → credit → users|credit → users → credit)/);
  });
});
