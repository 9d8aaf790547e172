import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const depcruise = path.join(repoRoot, 'node_modules/.bin/depcruise');
const config = path.join(repoRoot, '.dependency-cruiser.cjs');

/** The check `pnpm lint` runs (dependency-cruiser with the repo's config), in `cwd`, over `dirs`. */
const cruise = (cwd: string, dirs: string[]) =>
  run(depcruise, ['--config', config, ...dirs], { cwd }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );

const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/**
 * A copy of the server's source and the packages' sources, laid out as in the repository (the rules name paths from
 * its root), with `files` appended to or created in it.
 */
const copyWith = (files: Record<string, string>): string => {
  const copy = mkdtempSync(path.join(tmpdir(), 'layers-'));
  copies.push(copy);
  for (const dir of ['apps/bff/src', 'apps/widget/src', 'packages/contract/src', 'packages/sdk/src', 'packages/react/src']) {
    cpSync(path.join(repoRoot, dir), path.join(copy, dir), { recursive: true });
  }
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    writeFileSync(path.join(copy, file), content, { flag: 'a' });
  }
  return copy;
};

describe('the import rules (.dependency-cruiser.cjs, part of pnpm lint)', () => {
  it('hold on the repository as it is', async () => {
    const result = await cruise(repoRoot, ['apps', 'packages', 'e2e', 'docs/samples']);
    expect(result.output).toMatch(/no dependency violations found/);
    expect(result.code).toBe(0);
  });

  it('fail on each broken rule, naming the rule and the import', async () => {
    // One copy, one import breaking each rule: every rule must report its own.
    const copy = copyWith({
      'apps/bff/src/modules/offers/ranking.ts': "\nexport { insertScores } from '../credit/repo.ts';\n",
      'apps/bff/src/http/route.ts': "\nimport '../modules/users/service.ts';\n",
      'apps/bff/src/core/api-error.ts': "\nimport type { Pagination } from '../http/envelope.ts';\n",
      'apps/bff/src/modules/users/repo.ts': "\nimport type { PreparedResponse } from '../../http/error-response.ts';\n",
      'apps/bff/src/modules/webhooks/log-repo.ts': "\nimport { send } from '../../http/route.ts';\n",
      'apps/widget/src/api-shortcut.ts': "import { createApp } from '../../bff/src/app.ts';\nexport { createApp };\n",
      'packages/contract/src/app-leak.ts': "export { CreditClient } from '../../sdk/src/index.ts';\n",
      'packages/sdk/src/server-leak.ts': "export { ApiError } from '../../../apps/bff/src/core/api-error.ts';\n",
      'packages/sdk/src/ui-leak.ts': "export * from '../../react/src/index.ts';\n",
      'apps/bff/src/widget-leak.ts': "export * from '../../widget/src/api-shortcut.ts';\n",
    });
    const result = await cruise(copy, ['apps', 'packages']);
    expect(result.code).not.toBe(0);
    const reported = (rule: string, from: string, to: string) =>
      expect(result.output).toContain(`error ${rule}: ${from} → ${to}`);
    reported('module-through-its-service', 'apps/bff/src/modules/offers/ranking.ts', 'apps/bff/src/modules/credit/repo.ts');
    reported('http-imports-no-module', 'apps/bff/src/http/route.ts', 'apps/bff/src/modules/users/service.ts');
    reported('neutral-layer-stays-neutral', 'apps/bff/src/core/api-error.ts', 'apps/bff/src/http/envelope.ts');
    reported('repo-imports-no-http', 'apps/bff/src/modules/users/repo.ts', 'apps/bff/src/http/error-response.ts');
    reported('repo-imports-no-http', 'apps/bff/src/modules/webhooks/log-repo.ts', 'apps/bff/src/http/route.ts');
    reported('browser-app-imports-no-server', 'apps/widget/src/api-shortcut.ts', 'apps/bff/src/app.ts');
    reported('contract-imports-no-app', 'packages/contract/src/app-leak.ts', 'packages/sdk/src/index.ts');
    reported('client-package-imports-no-app', 'packages/sdk/src/server-leak.ts', 'apps/bff/src/core/api-error.ts');
    reported('sdk-imports-no-ui-package', 'packages/sdk/src/ui-leak.ts', 'packages/react/src/index.ts');
    reported('server-imports-no-browser-source', 'apps/bff/src/widget-leak.ts', 'apps/widget/src/api-shortcut.ts');
    reported('package-reached-by-name', 'packages/sdk/src/server-leak.ts', 'apps/bff/src/core/api-error.ts');
  });

  it('fail on an import cycle between modules, even through service.ts', async () => {
    const copy = copyWith({
      'apps/bff/src/modules/users/service.ts': "\nexport { getCreditScore } from '../credit/service.ts';\n",
    });
    const result = await cruise(copy, ['apps/bff/src']);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/error no-cycle-between-modules: apps\/bff\/src\/modules\/(users|credit)/);
  });
});
