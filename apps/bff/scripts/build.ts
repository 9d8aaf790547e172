/**
 * `pnpm --filter @credit/bff build` (part of the root `pnpm build`, which `pnpm start` runs): bundles the server into
 * apps/bff/dist/, which `start` and the CLIs run with plain `node --enable-source-maps`, no TypeScript loader:
 *   dist/main.js          the start command (src/main.ts), every ROLE; node:cluster forks it again for API_PROCESSES
 *   dist/cli/clients.js   `pnpm clients`       dist/cli/bureau.js   `pnpm bureau`       dist/cli/audit.js   `pnpm audit`
 *   dist/chunks/          code the entries share, and the sandbox demo (@credit/demo), loaded only when it starts
 *   dist/kit/             the partner kit's tarballs, which the sandbox serves at /kit (scripts/build-kit.ts)
 * ESM for Node 20, not minified, without esbuild's keepNames (no `__name(…)` wrapper around every named closure, which
 * tsx adds and which costs per request), with source maps (`--enable-source-maps` makes stack traces name src/ files).
 *
 * What is bundled: this package's src/ and the workspace packages it imports (@credit/contract, @credit/demo,
 * @credit/sdk), whose package.json exports point at their .ts sources. What is not: node: built-ins and every npm
 * package, imported from node_modules at run time; each must be one of this package's `dependencies` (a production
 * install has no devDependencies, and a workspace package's own dependencies are not resolvable from here), or the
 * build fails naming it.
 *
 * The build must live inside apps/bff (node_modules is resolved from the built file's folder). Files the server reads
 * at run time are found from the workspace root (src/lib/repo-root.ts), never by a count of `..` from the module.
 * bench/api.bench.ts bundles its server processes the same way (`bundleBenchServer`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { buildKit, isRunning } from './build-kit.ts';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
export const DIST_DIR = path.join(PACKAGE_DIR, 'dist');

/** Output name (under dist/, without .js) → source: what package.json's scripts run. */
export const ENTRY_POINTS: Record<string, string> = {
  main: 'src/main.ts',
  'cli/clients': 'src/cli/clients.ts',
  'cli/bureau': 'src/cli/bureau.ts',
  'cli/audit': 'src/cli/audit.ts',
};

const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const BUILTINS = new Set(builtinModules);

/** Bare imports: workspace packages bundled, the rest left to node_modules if `allowed` names them. */
const externals = (allowed: Set<string>): Plugin => ({
  name: 'credit-externals',
  setup(plugins) {
    plugins.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@credit/')) return undefined;
      const name = packageName(args.path);
      if (args.path.startsWith('node:') || BUILTINS.has(name) || allowed.has(name)) return { path: args.path, external: true };
      const importer = path.relative(PACKAGE_DIR, args.importer);
      return {
        errors: [
          {
            text: `${args.path} (imported by ${importer}) is not in apps/bff/package.json's dependencies: the built server would not find it at run time`,
          },
        ],
      };
    });
  },
});

const options = (allowed: Set<string>): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  // Off (esbuild's default; tsx turns it on): the point of the build is not to wrap every named closure in __name().
  keepNames: false,
  plugins: [externals(allowed)],
  logLevel: 'warning',
});

/** What builds into `outdir` killed half-way left beside it (`<outdir>.building-<pid>`, `.retired-<pid>`). */
const removeAbandoned = (outdir: string): void => {
  const parent = path.dirname(outdir);
  if (!existsSync(parent)) return;
  const base = path.basename(outdir);
  for (const name of readdirSync(parent)) {
    const [, pid] = /^\.(?:building|retired)-(\d+)$/.exec(name.startsWith(base) ? name.slice(base.length) : '') ?? [];
    if (pid && Number(pid) !== process.pid && !isRunning(Number(pid))) {
      rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
};

/**
 * Builds with `make(staging)` beside `outdir`, then puts the result in its place. A failed build leaves the old one
 * as it was. The swap is two renames: a process that starts from `outdir` between them finds nothing (it gets ENOENT,
 * not half a build); one that starts before keeps what it loaded, though a chunk it loads later comes from the new
 * build. If the swap fails (another build swapped first), the old build is put back and the error thrown.
 */
export const buildInPlaceOf = async (outdir: string, make: (staging: string) => Promise<unknown>): Promise<void> => {
  removeAbandoned(outdir);
  // Siblings of `outdir`: the source maps' relative paths hold after the rename.
  const staging = `${outdir}.building-${process.pid}`;
  const retired = `${outdir}.retired-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(retired, { recursive: true, force: true });
  try {
    await make(staging);
    const hadOne = existsSync(outdir);
    if (hadOne) renameSync(outdir, retired);
    try {
      renameSync(staging, outdir);
    } catch (error) {
      if (hadOne && !existsSync(outdir)) renameSync(retired, outdir);
      throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(retired, { recursive: true, force: true });
  }
};

/**
 * The product: ENTRY_POINTS into `outdir` (dist/), npm imports limited to `dependencies`, and the partner kit beside
 * them (kit/). Another `outdir` must be a folder of apps/bff too, to resolve its node_modules
 * (test/built-server.test.ts builds into one of its own). `kit: false` leaves the kit out: the test run's build of
 * dist/ for the tests that spawn the server (test/helpers/server-build.ts), which none of them asks for, and which
 * would otherwise pack again (about 10 s) after every change to the contract. Answers whether the kit was packed.
 */
export const buildServer = async (outdir = DIST_DIR, { kit = true } = {}): Promise<{ kitPacked: boolean }> => {
  let kitPacked = false;
  await buildInPlaceOf(outdir, (staging) =>
    Promise.all([
      build({
        ...options(new Set(Object.keys(manifest.dependencies))),
        entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([out, src]) => [out, path.join(PACKAGE_DIR, src)])),
        outdir: staging,
      }),
      kit &&
        buildKit(path.join(staging, 'kit')).then(({ packed }) => {
          kitPacked = packed;
        }),
    ]),
  );
  return { kitPacked };
};

/** Where benches bundle their server processes: outside dist/, which a build (or a test run's) replaces whole. */
export const BENCH_DIST_DIR = path.join(PACKAGE_DIR, 'dist-bench');

/**
 * A bench's server process (`file`, a path under bench/), bundled like the product into dist-bench/ and answered as the
 * file to fork with `node` (devDependencies allowed: benches run in a development install).
 */
export const bundleBenchServer = async (file: string): Promise<string> => {
  const name = path.basename(file, path.extname(file));
  const outdir = path.join(BENCH_DIST_DIR, name);
  mkdirSync(BENCH_DIST_DIR, { recursive: true });
  await buildInPlaceOf(outdir, (staging) =>
    build({
      ...options(new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)])),
      entryPoints: { [name]: path.resolve(file) },
      outdir: staging,
    }),
  );
  return path.join(outdir, `${name}.js`);
};

/** `execArgv` without tsx's hooks (`--import tsx`, `--require …/tsx/…`): what a process running a built file gets. */
export const withoutTsx = (execArgv: string[]): string[] =>
  execArgv.filter(
    (arg, i) =>
      !(/^--(import|require|loader)$/.test(arg) && /tsx/.test(execArgv[i + 1] ?? '')) &&
      !(/^--(import|require|loader)$/.test(execArgv[i - 1] ?? '') && /tsx/.test(arg)) &&
      !/^--(import|require|loader)=.*tsx/.test(arg),
  );

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  const { kitPacked } = await buildServer();
  const kit = kitPacked ? 'kit/ packed' : 'kit/ from the cache (its packages unchanged)';
  console.log(
    `apps/bff/dist: ${Object.keys(ENTRY_POINTS).join(', ')} and ${kit}, built in ${Math.round(performance.now() - started)} ms`,
  );
}
