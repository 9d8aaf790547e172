import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, DIST_DIR, ENTRY_POINTS } from '../../scripts/build.ts';

/**
 * The server's build, apps/bff/dist (scripts/build.ts), which the tests that spawn the start command or a CLI run with
 * plain `node --enable-source-maps`, as `pnpm start` does (no tsx transpiling the whole app in every child).
 * `pnpm test` builds it before Vitest; for a Vitest run on its own, this file is a globalSetup of vitest.config.ts:
 * once per run, before any test file, it builds dist/ if it is missing or older than a file it was built from.
 */

const PACKAGE_DIR = path.dirname(DIST_DIR);
const relative = (file: string) => path.relative(PACKAGE_DIR, file);

/** `node --enable-source-maps <this>` runs ENTRY_POINTS[name] as built (`main`, `cli/clients`, `cli/audit`, …). */
export const builtEntry = (name: keyof typeof ENTRY_POINTS): string => path.join(DIST_DIR, `${name}.js`);

/** Why dist/ cannot be run as it is (an entry point missing, or a source newer than the build), or undefined. */
export const serverBuildProblem = (): string | undefined => {
  const entries = Object.keys(ENTRY_POINTS).map(builtEntry);
  const missing = entries.find((file) => !existsSync(file) || !existsSync(`${file}.map`));
  if (missing) return `${relative(missing)} is missing`;
  const builtAt = Math.min(...entries.map((file) => statSync(file).mtimeMs));
  // What the build was made from, as its source maps list it (the entries' and their chunks'), and how it was made.
  const chunks = path.join(DIST_DIR, 'chunks');
  const maps = [
    ...entries.map((file) => `${file}.map`),
    ...(existsSync(chunks) ? readdirSync(chunks).filter((name) => name.endsWith('.js.map')) : []).map((name) =>
      path.join(chunks, name),
    ),
  ];
  const inputs = new Set([path.join(PACKAGE_DIR, 'scripts/build.ts'), path.join(PACKAGE_DIR, 'package.json')]);
  for (const map of maps) {
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    for (const source of sources) inputs.add(path.resolve(path.dirname(map), source));
  }
  for (const input of inputs) {
    if (!existsSync(input)) return `${relative(input)}, which it was built from, is gone`;
    if (statSync(input).mtimeMs > builtAt) return `${relative(input)} changed since it was built`;
  }
  return undefined;
};

/** Vitest's globalSetup: builds dist/ when serverBuildProblem() has a reason to (what `pnpm build` does for the server). */
export default async function setup() {
  const problem = serverBuildProblem();
  if (!problem) return;
  const started = performance.now();
  // Without the partner kit: no test spawning dist/ asks for it (kit.test.ts builds its own), and packing it takes seconds.
  await buildServer(DIST_DIR, { kit: false });
  console.log(`apps/bff/dist built for the tests that run it (${problem}) in ${Math.round(performance.now() - started)} ms`);
}
