import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One request shape, Express used as its authors intend (docs/decisions.md, "One dispatcher"): no server code writes
 * a private (underscore) field of any object, changes an object's prototype, or changes a request's headers, so an
 * Express or Node upgrade cannot break routing silently and Node's request is only ever read. Checked on the syntax
 * tree, whatever the variables are called.
 */
const SOURCE = path.resolve(import.meta.dirname, '../src');

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** The member a property or element access names, when it is written out. */
const memberName = (node: ts.Node): string | undefined => {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) return node.argumentExpression.text;
  return undefined;
};
const isAccess = (node: ts.Node): node is ts.PropertyAccessExpression | ts.ElementAccessExpression =>
  ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node);
const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) ? unwrap(node.expression) : node;

/** A write of `target`: what it changes, if the rule forbids it. */
const forbiddenWrite = (target: ts.Expression): string | undefined => {
  const node = unwrap(target);
  if (!isAccess(node)) return undefined;
  if (memberName(node)?.startsWith('_')) return 'writes a private field';
  // `x.headers.y`, `x.headers[name]`: a request's (or response's) header object, never changed in place.
  if (isAccess(unwrap(node.expression)) && memberName(unwrap(node.expression)) === 'headers')
    return "changes a request's headers";
  return undefined;
};

/** What the rule forbids in one source text, with the line that breaks it. */
const offences = (file: string, text: string): string[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      const what = forbiddenWrite(node.left);
      if (what) report(node, what);
    } else if (ts.isDeleteExpression(node)) {
      const what = forbiddenWrite(node.expression);
      if (what) report(node, what);
    } else if (ts.isCallExpression(node) && memberName(node.expression) === 'setPrototypeOf') {
      report(node, 'changes a prototype');
    } else if (ts.isIdentifier(node) && node.text === '__proto__') {
      report(node, 'changes a prototype');
    } else if (ts.isStringLiteralLike(node) && node.text === '__proto__' && ts.isElementAccessExpression(node.parent)) {
      report(node, 'changes a prototype');
    } else if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && ts.isTypeLiteralNode(node.type)) {
      const members = node.type.members.map((m) => (m.name && ts.isIdentifier(m.name) ? m.name.text : ''));
      if (members.some((name) => name.startsWith('_'))) report(node, 'reaches a private field through a cast');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('one door', () => {
  it('no server file writes private fields, changes a request’s headers or swaps prototypes', () => {
    const found = sourceFiles(SOURCE).flatMap((file) => offences(path.relative(SOURCE, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it.each([
    ['Object.setPrototypeOf(message, app.request);', 'changes a prototype'],
    ['Reflect.setPrototypeOf(m, proto);', 'changes a prototype'],
    ['const o = { __proto__: proto };', 'changes a prototype'],
    ['  inbound._parsedUrl = undefined;', 'writes a private field'],
    ['  (answer as Response)._header = null;', 'writes a private field'],
    ["  stream['_readableState'] = {};", 'writes a private field'],
    ['  delete x._events;', 'writes a private field'],
    ['const view = message as unknown as { _eventsCount: number };', 'reaches a private field through a cast'],
    ["  delete message.headers['if-none-match'];", "changes a request's headers"],
    ['  incoming.headers.authorization = "Bearer x";', "changes a request's headers"],
    ['  m.headers[name] ??= value;', "changes a request's headers"],
  ])('the check catches `%s`, whatever the names', (line, what) => {
    expect(offences('sample.ts', line)).toEqual([`sample.ts:1 ${what}`]);
  });

  it('the check leaves ordinary code alone', () => {
    const code = [
      'req.params = match.params;',
      'if (res._x === 1) return;',
      'const a = b;',
      'const value = m.headers[name];',
      "res.setHeader('X', '1');",
      'headers.authorization = token;',
      'out.headers = { ...out.headers, x: 1 };',
    ].join('\n');
    expect(offences('sample.ts', code)).toEqual([]);
  });
});
