import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
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

// Each cruise spawns dependency-cruiser over the whole tree: slow when the suite runs beside it.
describe('the import rules (.dependency-cruiser.cjs, part of pnpm lint)', { timeout: 120_000 }, () => {
  it('hold on the repository as it is', async () => {
    const result = await cruise(repoRoot, ['apps', 'packages', 'e2e', 'docs/samples', 'bench']);
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
      'apps/bff/src/modules/offers/service.ts': "\nimport { answerBytes } from '../../http/route.ts';\n",
      'apps/bff/src/modules/alerts/service.ts': "\nimport '../../db/keyset.ts';\n",
      'apps/bff/src/retention/prune.ts': "\nimport '../db/migrations/001-platform.ts';\n",
      'apps/widget/src/api-shortcut.ts': "import { createApp } from '../../bff/src/app.ts';\nexport { createApp };\n",
      'packages/contract/src/app-leak.ts': "export { CreditClient } from '../../sdk/src/index.ts';\n",
      'packages/sdk/src/server-leak.ts': "export { ApiError } from '../../../apps/bff/src/core/api-error.ts';\n",
      'packages/sdk/src/ui-leak.ts': "export * from '../../react/src/index.ts';\n",
      'apps/bff/src/widget-leak.ts': "export * from '../../widget/src/api-shortcut.ts';\n",
      'apps/demo/scripts/peek.ts': "export { createApp } from '../../bff/src/app.ts';\n",
      'apps/bff/src/modules/monitoring/cadence.ts': "\nimport '../../bureau/http/errors.ts';\n",
      'apps/bff/src/modules/widget/static-files.ts': "\nimport type { Response } from 'express';\n",
      'apps/bff/src/context.ts': "\nimport type { HttpRequest } from './http/api-request.ts';\n",
      'apps/bff/src/modules/audit/record.ts':
        "\nimport { AsyncLocalStorage } from 'node:async_hooks';\nexport const served = new AsyncLocalStorage<string>();\n",
      'apps/bff/src/lib/work-scope.ts':
        "export const storage = async () => new (await import('async_hooks')).AsyncLocalStorage();\n",
    });
    const result = await cruise(copy, ['apps', 'packages']);
    expect(result.code).not.toBe(0);
    const reported = (rule: string, from: string, to: string) =>
      expect(result.output).toContain(`error ${rule}: ${from} → ${to}`);
    reported('module-through-its-service', 'apps/bff/src/modules/offers/ranking.ts', 'apps/bff/src/modules/credit/repo.ts');
    reported('http-imports-no-module', 'apps/bff/src/http/route.ts', 'apps/bff/src/modules/users/service.ts');
    reported('neutral-layer-stays-neutral', 'apps/bff/src/core/api-error.ts', 'apps/bff/src/http/envelope.ts');
    reported('module-http-only-in-routes', 'apps/bff/src/modules/users/repo.ts', 'apps/bff/src/http/error-response.ts');
    reported('module-http-only-in-routes', 'apps/bff/src/modules/webhooks/log-repo.ts', 'apps/bff/src/http/route.ts');
    reported('module-http-only-in-routes', 'apps/bff/src/modules/offers/service.ts', 'apps/bff/src/http/route.ts');
    reported('sql-builders-only-in-repos', 'apps/bff/src/modules/alerts/service.ts', 'apps/bff/src/db/keyset.ts');
    reported('express-only-at-the-edge', 'apps/bff/src/modules/widget/static-files.ts', 'express');
    reported('context-imports-no-http', 'apps/bff/src/context.ts', 'apps/bff/src/http/api-request.ts');
    reported('no-async-context-in-the-server', 'apps/bff/src/modules/audit/record.ts', 'async_hooks');
    reported('no-async-context-in-the-server', 'apps/bff/src/lib/work-scope.ts', 'async_hooks');
    reported('sql-builders-only-in-repos', 'apps/bff/src/retention/prune.ts', 'apps/bff/src/db/migrations/001-platform.ts');
    reported('browser-app-imports-no-server', 'apps/widget/src/api-shortcut.ts', 'apps/bff/src/app.ts');
    reported('contract-imports-no-app', 'packages/contract/src/app-leak.ts', 'packages/sdk/src/index.ts');
    reported('client-package-imports-no-app', 'packages/sdk/src/server-leak.ts', 'apps/bff/src/core/api-error.ts');
    reported('sdk-imports-no-ui-package', 'packages/sdk/src/ui-leak.ts', 'packages/react/src/index.ts');
    reported('server-imports-no-browser-source', 'apps/bff/src/widget-leak.ts', 'apps/widget/src/api-shortcut.ts');
    reported('package-reached-by-name', 'packages/sdk/src/server-leak.ts', 'apps/bff/src/core/api-error.ts');
    reported('server-source-for-bench-and-tests-only', 'apps/demo/scripts/peek.ts', 'apps/bff/src/app.ts');
    reported(
      'modules-reach-the-bureau-through-its-port',
      'apps/bff/src/modules/monitoring/cadence.ts',
      'apps/bff/src/bureau/http/errors.ts',
    );
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

/** The text of every string and template literal of a source file, a `+` chain of them as one (code and comments left out). */
const literalsOf = (source: string): string[] => {
  const texts: string[] = [];
  const textOf = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `?${span.literal.text}`).join('');
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [left, right] = [textOf(node.left), textOf(node.right)];
      return left === undefined && right === undefined ? undefined : `${left ?? '?'}${right ?? '?'}`;
    }
    return undefined;
  };
  const visit = (node: ts.Node) => {
    const text = textOf(node);
    if (text !== undefined) texts.push(text);
    node.forEachChild(visit);
  };
  visit(ts.createSourceFile('source.ts', source, ts.ScriptTarget.Latest));
  return texts;
};

/** A statement in a literal: a write, a select from a table, a select with bind parameters, a CTE. */
const SQL =
  /\b(insert\s+into|delete\s+from)\s+\w|\bupdate\s+\w+(\s+\w+)?\s+set\s|\bselect\s[\s\S]*(\bfrom\s+\w|\$\d)|^\s*with\s+\w+\s+as\s*\(/i;
const USERS_WRITE = /\b(insert\s+into|update|delete\s+from)\s+users\b/i;
const REPO_FILE = /(^|[/-])repo\.ts$/;

/** Every server source file under `root`, by its path from apps/bff/src, with its string literals. */
const serverSources = (root: string): { file: string; literals: string[] }[] => {
  const src = path.join(root, 'apps/bff/src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file: file.split(path.sep).join('/'), literals: literalsOf(readFileSync(path.join(src, file), 'utf8')) }));
};

/** Files with SQL that are neither repos nor db/: SQL lives in repos (repo.ts, *-repo.ts) and db/ only. */
const sqlOutsideRepos = (root: string): string[] =>
  serverSources(root)
    .filter(({ file, literals }) => !REPO_FILE.test(file) && !file.startsWith('db/') && literals.some((text) => SQL.test(text)))
    .map(({ file }) => file);

/** Files outside the users module that write the `users` table (its migrations excepted): users alone writes its rows. */
const usersWritesOutsideUsers = (root: string): string[] =>
  serverSources(root)
    .filter(
      ({ file, literals }) => !/^(modules\/users|db\/migrations)\//.test(file) && literals.some((text) => USERS_WRITE.test(text)),
    )
    .map(({ file }) => file);

describe('where SQL is written (string literals; imports cannot show it)', () => {
  it('holds on the repository as it is: SQL only in repos and db/, users rows written only by the users module', () => {
    expect(sqlOutsideRepos(repoRoot)).toEqual([]);
    expect(usersWritesOutsideUsers(repoRoot)).toEqual([]);
  });

  it("fails on SQL in a service and on a write of users in another module's repo", () => {
    const copy = copyWith({
      'apps/bff/src/modules/alerts/service.ts': "\nexport const strayRead = 'select id from alerts where user_id = $1';\n",
      'apps/bff/src/cache/stray.ts':
        "const channel = 'stray';\nexport const strayNotify = 'select pg_notify(' + channel + ', $1)';\n",
      'apps/bff/src/modules/credit/repo.ts':
        '\nexport const strayWrite = `update users set last_score_date = null where id = $1`;\n',
    });
    expect(sqlOutsideRepos(copy)).toEqual(expect.arrayContaining(['modules/alerts/service.ts', 'cache/stray.ts']));
    expect(sqlOutsideRepos(copy)).not.toContain('modules/credit/repo.ts');
    expect(usersWritesOutsideUsers(copy)).toEqual(['modules/credit/repo.ts']);
  });
});
