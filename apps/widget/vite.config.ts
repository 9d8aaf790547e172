import { rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { publishBuild, removeAbandonedStaging, stagingDirFor } from './scripts/publish-build.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the API may send compressed; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible asset, once, at build time, at the
 * strongest levels: the API then picks one per request (apps/bff/src/modules/widget) and never
 * compresses on the fly. A variant that would not be smaller is left out.
 */
const precompress = (): Plugin => ({
  name: 'credit:precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    const dir = options.dir ?? 'dist';
    const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name) && name !== 'index.html');
    await Promise.all(
      files.map(async (name) => {
        const file = path.join(dir, name);
        const original = await readFile(file);
        const variants = await Promise.all([
          brotli(original, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
            },
          }).then((body) => ({ ext: '.br', body })),
          gzipAsync(original, { level: constants.Z_BEST_COMPRESSION }).then((body) => ({ ext: '.gz', body })),
        ]);
        await Promise.all(
          variants.filter((v) => v.body.length < original.length).map((v) => writeFile(`${file}${v.ext}`, v.body)),
        );
      }),
    );
  },
});

/**
 * Builds into a staging folder beside `build.outDir` and publishes from there (scripts/publish-build.ts): a frame
 * opened on an earlier build still finds the lazy chunks it asks for after a rebuild. A build that fails publishes
 * nothing and leaves the served folder as it was.
 */
const publishBesidePreviousBuilds = (): Plugin => {
  let served = '';
  let staging = '';
  let written = false;
  return {
    name: 'credit:publish',
    apply: 'build',
    config(config) {
      served = path.resolve(config.root ?? process.cwd(), config.build?.outDir ?? 'dist');
      staging = stagingDirFor(served);
      removeAbandonedStaging(served);
      return { build: { outDir: staging } };
    },
    writeBundle() {
      written = true;
    },
    closeBundle() {
      if (written) publishBuild({ staging, served });
      else rmSync(staging, { recursive: true, force: true });
    },
  };
};

// Served by the API at /widget (see apps/bff/src/modules/widget), so every asset URL lives under /widget/.
export default defineConfig({
  base: '/widget/',
  plugins: [react(), precompress(), publishBesidePreviousBuilds()],
  build: {
    // Where the API serves the build from; Vite itself writes into a fresh staging folder beside it (see above).
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // A partner's page waits on this frame: keep one small entry and let the chart load on demand.
    modulePreload: { polyfill: true },
    reportCompressedSize: true,
  },
  server: { port: 5174 },
});
