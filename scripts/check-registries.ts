// No module-level registries in the API server: what one app keeps in memory for its work (a spool, a listener, an
// agent, work under way, what it already did) lives on its AppContext (`ctx.services`, apps/bff/src/context.ts), so two
// apps in one process (a test's, a bench's) share nothing by accident. Flagged, from the syntax tree, at a file's top
// level: a `let`, and a `const` made by `new Map()`, `new Set()`, `new WeakMap()`, `new WeakSet()` without initial
// entries or by `new LRUCache(…)`. A table built from given entries (`new Set(['a', 'b'])`) is a constant and stays
// allowed. ALLOWED names the memos keyed on immutable values and the facts about the process itself, each with why.
// Run: pnpm exec tsx scripts/check-registries.ts (from the repository root; it reads apps/bff/src).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const SCANNED = 'apps/bff/src';

/** `file:name` → why this module-level state is no app's. */
export const ALLOWED: Record<string, string> = {
  'apps/bff/src/core/cursor.ts:codecs': 'a memo keyed on a TokenHasher: one codec per set of signing keys, whoever asks',
  'apps/bff/src/core/shared-answer.ts:sharedDataBytes': 'a memo keyed on an answer object: its JSON bytes, gone with it',
  'apps/bff/src/modules/credit/service.ts:factorsByFile': 'a memo keyed on an immutable credit file',
  'apps/bff/src/modules/credit/service.ts:reportsByFile': 'a memo keyed on an immutable credit file',
  'apps/bff/src/modules/offers/service.ts:rankedByCatalogue': 'a memo keyed on an immutable catalogue and facts',
  'apps/bff/src/modules/offers/service.ts:pagesOfRanked': 'a memo keyed on an immutable ranked list: its pages as answered',
  'apps/bff/src/db/write-behind.ts:plans': 'a memo keyed on statement texts: how each is held, the same for every app',
  'apps/bff/src/http/input-parse.ts:withPolicy': 'a memo keyed on a schema object',
  'apps/bff/src/http/input-parse.ts:memos': 'a memo keyed on a schema object',
  'apps/bff/src/http/request-logger.ts:loggers': 'one logger per request object, gone with the request',
  'apps/bff/src/outbox/outbox.ts:notified': 'a fact about one transaction object, gone with it',
  'apps/bff/src/db/prepared-statements.ts:names': 'a memo of statement names, each a hash of its SQL text',
  'apps/bff/src/http/request-id.ts:counter': 'request ids are unique per process, whichever app serves the request',
  'apps/bff/src/lib/random-pool.ts:next': "the process's pool of random bytes",
  'apps/bff/src/security/secret-hash.ts:decoyHash': 'a memo of one constant hash',
  'apps/bff/src/modules/kit/manifest.ts:loaded': "a memo of the kit's files on disk, keyed by their folder",
};

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const ALWAYS_STATE = new Set(['LRUCache']);
const EXTENSIONS = /\.(?:[cm]?ts|tsx)$/;

export interface Registry {
  file: string;
  line: number;
  name: string;
  message: string;
}

const constructedState = (init: ts.Expression | undefined): string | undefined => {
  let bare = init;
  while (bare && (ts.isAsExpression(bare) || ts.isParenthesizedExpression(bare) || ts.isSatisfiesExpression(bare))) {
    bare = bare.expression;
  }
  if (!bare || !ts.isNewExpression(bare) || !ts.isIdentifier(bare.expression)) return undefined;
  const name = bare.expression.text;
  if (ALWAYS_STATE.has(name)) return `new ${name}`;
  if (COLLECTIONS.has(name) && (bare.arguments?.length ?? 0) === 0) return `new ${name}()`;
  return undefined;
};

/** Every module-level registry in one source text, allowed ones included. */
export const registriesIn = (file: string, text: string): Registry[] => {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Registry[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const mutable = (statement.declarationList.flags & ts.NodeFlags.Let) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const made = mutable ? 'a module-level let' : constructedState(declaration.initializer);
      if (!made) continue;
      const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
      const name = declaration.name.text;
      found.push({ file, line, name, message: `${made} (${name}) is state of every app in the process: put it on ctx.services` });
    }
  }
  return found;
};

const sourceFiles = (root: string, dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(root, relative);
    return EXTENSIONS.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });

/** Every registry under `root` (a checkout, or a copy of one) that ALLOWED does not name. */
export const registriesUnder = (root: string): { files: number; registries: Registry[] } => {
  const files = sourceFiles(root, SCANNED);
  const registries = files
    .flatMap((file) => registriesIn(file, readFileSync(path.join(root, file), 'utf8')))
    .filter((r) => !(`${r.file}:${r.name}` in ALLOWED));
  return { files: files.length, registries };
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, registries } = registriesUnder(process.cwd());
  if (registries.length > 0) {
    for (const r of registries) console.error(`${r.file}:${r.line}: ${r.message}`);
    console.error(`\n${registries.length} module-level registr${registries.length === 1 ? 'y' : 'ies'} in ${SCANNED}.`);
    process.exit(1);
  }
  console.log(`Registries: none in ${files} files of ${SCANNED} outside the allowed memos.`);
}
