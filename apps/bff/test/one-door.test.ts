import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One request path, Express used as its authors intend (docs/decisions.md, "One dispatcher"): no server code writes a
 * private (underscore) field of a request or response, or changes an object's prototype, so an Express or Node
 * upgrade cannot break routing silently.
 */
const SOURCE = path.resolve(import.meta.dirname, '../src');

/** What the rule forbids, with the line that breaks it. */
const offences = (file: string, text: string): string[] => {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `${file}:${index + 1}`;
    if (/\b(setPrototypeOf|__proto__)\b/.test(line)) found.push(`${at} changes a prototype`);
    if (/\b(req|res|request|response|incoming|outgoing|events)\)?\._[A-Za-z]\w*\s*=[^=]/.test(line)) {
      found.push(`${at} writes a private field`);
    }
    if (/\bas unknown as \{\s*_[A-Za-z]/.test(line)) found.push(`${at} reaches a private field through a cast`);
  });
  return found;
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('one door', () => {
  it('no server file writes private fields of requests or responses or swaps prototypes', () => {
    const found = sourceFiles(SOURCE).flatMap((file) => offences(path.relative(SOURCE, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it.each([
    ['Object.setPrototypeOf(req, app.request);', 'changes a prototype'],
    ['  req._parsedUrl = undefined;', 'writes a private field'],
    ['  (res)._header = null;', 'writes a private field'],
    ['const events = req as unknown as { _eventsCount: number };', 'reaches a private field through a cast'],
  ])('the check catches `%s`', (line, what) => {
    expect(offences('sample.ts', line)).toEqual([`sample.ts:1 ${what}`]);
  });

  it('the check leaves ordinary code alone', () => {
    expect(offences('sample.ts', 'req.params = match.params;\nif (res._x === 1) return;\nconst a = b;')).toEqual([]);
  });
});
