#!/usr/bin/env node
// `pnpm release:pack`: the tarballs a partner installs, written to dist-packages/ (or `--out <dir>`), checked.
//  - `pnpm pack` in each published package: it runs the package's `prepack` (the tsup build), applies
//    `publishConfig` (exports pointing at dist/ instead of the workspace's src/) and replaces `workspace:*` by the
//    versions it names, so the tarball installs with npm anywhere.
//  - Each tarball is then checked: only dist/, package.json and README.md (no sources, tests or tsconfig), no `workspace:`
//    range, every export's files present; publint (strict) and @arethetypeswrong/cli (profile esm-only: the packages
//    are ESM, which Node 20.19+ also loads from `require`) run on the tarball itself, as npm would publish it.
// Usage: node scripts/release-pack.mjs [--out <dir>] [--json] [--no-tools]
//  --no-tools: without publint and attw (seconds per package), for the server's build, which serves the tarballs at
//  /kit (apps/bff/scripts/build.ts); the checks of the tarball's contents still run. A release runs them all.
// The published packages and why (docs/partner/install.md, docs/decisions.md):
//  contract (sdk's runtime schemas), sdk, react (self-contained: embed's constants and the protocol types bundled).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const PUBLISHED = ['packages/contract', 'packages/sdk', 'packages/react'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = path.resolve(outIndex >= 0 ? args[outIndex + 1] : path.join(root, 'dist-packages'));
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const run = (command, commandArgs, cwd = root) =>
  execFileSync(command, commandArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const runAsync = async (command, commandArgs, cwd = root) =>
  (await promisify(execFile)(command, commandArgs, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })).stdout;

/** The files of a tarball and its package.json, read with tar (no extraction). */
const contentsOf = (tarball) => {
  const files = run('tar', ['-tzf', tarball])
    .split('\n')
    .filter(Boolean)
    .map((file) => file.replace(/^package\//, ''));
  const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json']));
  return { files, manifest };
};

/** What would go wrong for a partner installing this tarball, in words; empty when nothing. */
const problemsOf = ({ files, manifest }) => {
  const problems = [];
  const stray = files.filter((file) => !['package.json', 'README.md'].includes(file) && !file.startsWith('dist/'));
  if (stray.length > 0) problems.push(`files outside dist/ besides package.json and README.md: ${stray.join(', ')}`);
  const sources = files.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
  if (sources.length > 0) problems.push(`TypeScript sources: ${sources.join(', ')}`);
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`);
    }
  }
  if (manifest.private) problems.push('private: true');
  if (/^0\.0\.0/.test(manifest.version)) problems.push(`version ${manifest.version}`);
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    const targets = typeof target === 'string' ? [target] : Object.values(target);
    for (const file of targets) {
      if (!files.includes(file.replace(/^\.\//, ''))) problems.push(`exports["${entry}"] names ${file}, not in the tarball`);
    }
  }
  return problems;
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
/** Packs one package (its prepack build first) and checks the tarball; the packages build side by side. */
const packAndCheck = async (dir) => {
  // The prepack build prints before pack's JSON answer: the answer is the last object on stdout.
  const stdout = await runAsync('pnpm', ['pack', '--json', '--pack-destination', out], path.join(root, dir));
  const answer = JSON.parse(stdout.slice(Math.max(0, stdout.lastIndexOf('\n{') + 1)));
  const tarball = path.isAbsolute(answer.filename) ? answer.filename : path.join(out, path.basename(answer.filename));
  const contents = contentsOf(tarball);
  const problems = problemsOf(contents);
  const checkers = [
    ['publint', ['run', tarball, '--strict']],
    ['attw', [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color']],
  ];
  for (const [tool, toolArgs] of args.includes('--no-tools') ? [] : checkers) {
    try {
      run(bin(tool), toolArgs);
    } catch (error) {
      problems.push(`${tool}:\n${error.stdout}${error.stderr}`);
    }
  }
  const { name, version } = contents.manifest;
  return { name, version, tarball, files: contents.files.length, problems };
};

const packed = await Promise.all(PUBLISHED.map(packAndCheck));
let failed = false;
for (const { name, problems } of packed) {
  if (problems.length === 0) continue;
  failed = true;
  console.error(`${name}: ${problems.join('\n  ')}`);
}

if (args.includes('--json')) console.log(JSON.stringify(packed.map(({ problems, ...pkg }) => pkg)));
else
  for (const pkg of packed) console.log(`${pkg.name}@${pkg.version}: ${path.relative(root, pkg.tarball)} (${pkg.files} files)`);
if (failed) process.exit(1);
