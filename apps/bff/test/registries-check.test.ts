import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED, registriesIn, registriesUnder } from '../../../scripts/check-registries.ts';
import { REPO as repo, scriptOnTree } from './helpers/script-tree.ts';

/** scripts/check-registries.ts (part of pnpm lint) over a tree holding only `files`. */
const checkTree = scriptOnTree('scripts/check-registries.ts');

const namesIn = (text: string) => registriesIn('apps/bff/src/x.ts', text).map((r) => `${r.line}:${r.name}`);

describe('the registries check (scripts/check-registries.ts, part of pnpm lint)', () => {
  it('passes the server as it is', () => {
    expect(registriesUnder(repo).registries).toEqual([]);
  });

  it('names only what is there: every allowed memo exists', () => {
    for (const entry of Object.keys(ALLOWED)) {
      const [file, name] = entry.split(':') as [string, string];
      const found = registriesIn(file, readFileSync(path.join(repo, file), 'utf8')).map((r) => r.name);
      expect(found, entry).toContain(name);
    }
  });

  it('fails on a planted registry, naming its file and line', async () => {
    const result = await checkTree({
      'apps/bff/src/modules/x/service.ts':
        "import type { Db } from '../../db/db.ts';\nconst spools = new WeakMap<Db, object>();\nexport const spoolOf = (db: Db) => spools.get(db);\n",
      'apps/bff/src/modules/y/service.ts': 'const LATE = new Set([1, 2]);\nexport const late = (n: number) => LATE.has(n);\n',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('apps/bff/src/modules/x/service.ts:2: new WeakMap() (spools)');
    expect(result.output).toContain('1 module-level registry');
  });

  it('flags a let, an empty collection and a cache at the top level, not a constant table nor a local', () => {
    expect(
      namesIn(
        [
          'let seen = 0;',
          'const running = new Map<string, Promise<void>>();',
          'const cache = new LRUCache<string, true>({ max: 10 });',
          "const TYPES: ReadonlySet<string> = new Set(['a']);",
          'export const f = () => { const local = new Map(); let n = 0; return [local, n]; };',
          'const given = new Set() as Set<string>;',
        ].join('\n'),
      ),
    ).toEqual(['1:seen', '2:running', '3:cache', '6:given']);
  });
});
