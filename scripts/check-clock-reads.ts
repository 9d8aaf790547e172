// One clock in the API server: nothing in apps/bff/src reads the machine's time except apps/bff/src/lib/clock.ts.
// Time comes from ctx.clock.now() (or realNow(ctx.clock) for facts about machines), so a test, a sandbox test
// clock and a bench can move it. Flagged, from the syntax tree (a comment or a string naming them is no read):
//  - `Date.now`, called or passed on (`Date.now()`, `setInterval(tick(Date.now))`, `globalThis.Date.now`);
//  - `new Date()` and `new Date` without arguments, and `Date()` called without `new` (a string of now);
// `new Date(ms)` and `new Date(iso)` only convert, and stay allowed. Fails listing every read, with its line.
// Run: pnpm exec tsx scripts/check-clock-reads.ts (from the repository root; it reads apps/bff/src).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** What is scanned, and the one file that may read the machine's clock (it is the clock). */
export const SCANNED = 'apps/bff/src';
export const CLOCK_FILE = 'apps/bff/src/lib/clock.ts';

const EXTENSIONS = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);
const ADVICE = `take the time from ctx.clock.now() (${CLOCK_FILE})`;

export interface ClockRead {
  /** As reported: `apps/bff/src/http/rate-limit.ts`. */
  file: string;
  line: number;
  column: number;
  message: string;
}

/** `Date`, or `<anything>.Date` (`globalThis.Date`, `window.Date`). */
const isDate = (node: ts.Expression): boolean => {
  let bare = node;
  // `(Date).now()`, `Date!.now()`, `(Date as DateConstructor).now()` read it all the same.
  while (ts.isParenthesizedExpression(bare) || ts.isNonNullExpression(bare) || ts.isAsExpression(bare)) bare = bare.expression;
  if (ts.isIdentifier(bare)) return bare.text === 'Date';
  return ts.isPropertyAccessExpression(bare) && bare.name.text === 'Date';
};

const memberName = (node: ts.Node): string | undefined => {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    return node.argumentExpression.text;
  }
  return undefined;
};

/** Every read of the machine's clock in one source text. */
export const clockReadsIn = (file: string, text: string): ClockRead[] => {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const reads: ClockRead[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    reads.push({ file, line: line + 1, column: character + 1, message: `${what} reads the machine's clock: ${ADVICE}` });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && memberName(node) === 'now') {
      if (isDate(node.expression)) report(node, 'Date.now');
    } else if (ts.isNewExpression(node) && isDate(node.expression) && (node.arguments?.length ?? 0) === 0) {
      report(node, 'new Date() without arguments');
    } else if (ts.isCallExpression(node) && isDate(node.expression)) {
      report(node, 'Date() without new');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
};

const sourceFiles = (root: string, dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(root, relative);
    return EXTENSIONS.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });

/** Every read outside the clock's own file, under `root` (a checkout, or a copy of one). */
export const clockReadsUnder = (root: string): { files: number; reads: ClockRead[] } => {
  const files = sourceFiles(root, SCANNED).filter((file) => file !== CLOCK_FILE);
  return { files: files.length, reads: files.flatMap((file) => clockReadsIn(file, readFileSync(path.join(root, file), 'utf8'))) };
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, reads } = clockReadsUnder(process.cwd());
  if (reads.length > 0) {
    for (const read of reads) console.error(`${read.file}:${read.line}:${read.column}: ${read.message}`);
    console.error(`\n${reads.length} read(s) of the machine's clock in ${SCANNED} outside ${CLOCK_FILE}.`);
    process.exit(1);
  }
  console.log(`Clock reads: none in ${files} files of ${SCANNED} outside ${CLOCK_FILE}.`);
}
