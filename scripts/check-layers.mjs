#!/usr/bin/env node
// The import rules README's "Architecture" section states, checked on every `pnpm lint`:
//  1. http/ (request plumbing) never imports a module; it reaches auth through AppContext.
//  2. The neutral layers (core, lib, db, security, cache, bureau, outbox) import neither modules nor http/.
//  3. A module reaches another module only through that module's public file, service.ts (types included).
//  4. No cycles between modules.
//  5. A repo (a module's repo.ts or *-repo.ts: its SQL) never imports http/; what it shares with other repos
//     (keyset pagination, the cursor codec) lives in db/ and core/.
// Usage: node scripts/check-layers.mjs [srcDir]   (default apps/bff/src; tests point it at a fixture)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'apps/bff/src');
const NEUTRAL = ['core', 'lib', 'db', 'security', 'cache', 'bureau', 'outbox'];
const PUBLIC_FILE = 'service.ts';
const isRepo = (rest) => /(^|\/|-)repo\.ts$/.test(rest);

const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return full.endsWith('.ts') ? [full] : [];
  });

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

/** [top-level folder, module name or undefined, file name] of a file under root. */
const placeOf = (file) => {
  const parts = path.relative(root, file).split(path.sep);
  return {
    top: parts[0],
    module: parts[0] === 'modules' ? parts[1] : undefined,
    rest: parts.slice(parts[0] === 'modules' ? 2 : 1).join('/'),
  };
};

const problems = [];
const moduleEdges = new Map();
for (const file of filesUnder(root)) {
  const from = placeOf(file);
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), match[1] ?? match[2] ?? match[3]);
    if (!target.startsWith(root + path.sep)) continue;
    const to = placeOf(target);
    const where = `${path.relative(root, file)} imports ${path.relative(root, target)}`;
    if (from.top === 'http' && to.top === 'modules') problems.push(`${where}: http/ must not import modules (use AppContext).`);
    if (NEUTRAL.includes(from.top) && (to.top === 'modules' || to.top === 'http')) {
      problems.push(`${where}: ${from.top}/ is a neutral layer and must not import ${to.top}/.`);
    }
    if (from.module && isRepo(from.rest) && to.top === 'http') {
      problems.push(`${where}: a repo must not import http/ (SQL and what it needs live in repos, db/ and core/).`);
    }
    if (from.module && to.module && from.module !== to.module) {
      if (to.rest !== PUBLIC_FILE) problems.push(`${where}: another module is reached only through its ${PUBLIC_FILE}.`);
      if (!moduleEdges.has(from.module)) moduleEdges.set(from.module, new Set());
      moduleEdges.get(from.module).add(to.module);
    }
  }
}

// Cycles between modules (depth-first search over the module graph).
const state = new Map();
const visit = (module, trail) => {
  if (state.get(module) === 'done') return;
  if (state.get(module) === 'open') {
    problems.push(`import cycle between modules: ${[...trail.slice(trail.indexOf(module)), module].join(' → ')}`);
    return;
  }
  state.set(module, 'open');
  for (const next of moduleEdges.get(module) ?? []) visit(next, [...trail, module]);
  state.set(module, 'done');
};
for (const module of moduleEdges.keys()) visit(module, []);

if (problems.length > 0) {
  process.stderr.write(`Layer rules broken (README, Architecture):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Layers hold: ${moduleEdges.size} modules import others only through ${PUBLIC_FILE}, no cycles.\n`);
