#!/usr/bin/env node
// One client: outside the SDK and the contract, nothing calls the API by a path written by hand or casts a
// response to a shape it hopes for. Calls go through `@credit/sdk` (paths, types and validation from the
// contract). Fails listing every offence; `ALLOWED` names what must stay, each with its reason.
// Run: node scripts/check-no-handwritten-paths.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where API clients live: every app's source, the loader, the journeys and the demo bank (tests included). */
const SCANNED = [
  ...readdirSync(path.join(root, 'apps')).map((app) => `apps/${app}/src`),
  'packages/embed/src',
  'e2e/src',
  'e2e/test',
  'apps/demo',
];
const EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx']);
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', 'test-results']);

/** Files (or folders, ending in /) allowed to keep a path or a cast, and why. The lead removes entries as they go. */
const ALLOWED = [
  {
    path: 'apps/bff/src/',
    reason: 'the API server itself: it mounts, routes and documents these paths; the rule is about its clients',
  },
  {
    path: 'packages/embed/src/options.ts',
    reason: 'an error message telling a developer which endpoint mints user tokens, not a call',
  },
  {
    path: 'packages/embed/src/token-refresh.ts',
    reason: 'reads the partner’s own token URL (not the API), and checks the value it reads as unknown',
  },
  { path: 'apps/demo/src/page.ts', reason: 'curl and fetch examples printed on the demo page for a person to paste, not calls' },
  { path: 'apps/demo/test/start-command.test.ts', reason: 'asserts the curl command the start banner prints for a person' },
  {
    path: 'apps/demo/test/demo-server.test.ts',
    reason: 'asserts the page’s printed examples and calls the API as the widget does with a user token; to move onto the SDK',
  },
];

/** A path of the API anywhere in a string: `/v1/users…`, `/v1/${…}`, `/oauth/token`. A bare `/v1/` prefix is no endpoint. */
const ENDPOINT = /\/(?:v1|oauth)\/[A-Za-z{$]/;
/** A response body given a type by assertion rather than by the contract's schemas. */
const CASTS = [/\.json\(\)\)?\s+as\s/, /\bas\s+(?:Envelope|ApiEnvelope)\s*</, /\bas\s+\{\s*data\s*[?]?:/];

/** The widget reaches the API only through `@credit/sdk/browser` (its auth is the SDK's `CreditAuth`): no fetch of its own. */
const WIDGET_SOURCE = 'apps/widget/src/';
const OWN_FETCH = /\b(?:fetch|XMLHttpRequest)\s*\(/;

/** The string and template literals of a source file with their line numbers; comments are skipped. */
const stringLiterals = function* (source) {
  let line = 1;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\n') line += 1;
    else if (char === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i += 1;
      line += 1;
    } else if (char === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop - 1;
    } else if (char === "'" || char === '"' || char === '`') {
      const startLine = line;
      let text = '';
      for (i += 1; i < source.length && source[i] !== char; i += 1) {
        if (source[i] === '\\') {
          text += source[i + 1] ?? '';
          i += 1;
          continue;
        }
        if (source[i] === '\n') {
          if (char !== '`') break;
          line += 1;
        }
        text += source[i];
      }
      yield { text, line: startLine };
    }
  }
};

const filesUnder = (relative) => {
  const absolute = path.join(root, relative);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    return [];
  }
  if (stats.isFile()) return EXTENSIONS.has(path.extname(relative)) ? [relative] : [];
  return readdirSync(absolute)
    .filter((name) => !SKIPPED_DIRS.has(name))
    .flatMap((name) => filesUnder(path.posix.join(relative, name)));
};

const allowedReason = (file) =>
  ALLOWED.find((entry) => (entry.path.endsWith('/') ? file.startsWith(entry.path) : file === entry.path));

const offences = [];
const used = new Set();
for (const file of [...new Set(SCANNED.flatMap(filesUnder))].sort()) {
  const source = readFileSync(path.join(root, file), 'utf8');
  const found = [];
  for (const literal of stringLiterals(source)) {
    if (ENDPOINT.test(literal.text))
      found.push(`${file}:${literal.line}: endpoint path in a string: ${literal.text.slice(0, 80)}`);
  }
  source.split('\n').forEach((text, index) => {
    if (CASTS.some((cast) => cast.test(text))) found.push(`${file}:${index + 1}: response cast: ${text.trim().slice(0, 80)}`);
    if (file.startsWith(WIDGET_SOURCE) && OWN_FETCH.test(text))
      found.push(`${file}:${index + 1}: the widget's own fetch: ${text.trim().slice(0, 80)}`);
  });
  if (found.length === 0) continue;
  const allowed = allowedReason(file);
  if (allowed) used.add(allowed);
  else offences.push(...found);
}

for (const entry of ALLOWED.filter((candidate) => !used.has(candidate))) {
  offences.push(`${entry.path}: allowed but has nothing to allow any more; remove the entry`);
}
if (offences.length > 0) {
  console.error('Hand-written API paths or response casts outside @credit/sdk and @credit/contract:');
  for (const offence of offences) console.error(`  ${offence}`);
  console.error('Call the API through @credit/sdk (client.call / client.list), which takes paths and types from the contract.');
  process.exit(1);
}
console.log(`No hand-written API paths or response casts (${ALLOWED.length} allowed with reasons).`);
