import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { publishBuild, removeAbandonedStaging, stagingDirFor } from '../widget/scripts/publish-build.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json)$/;

/**
 * `<file>.br` and `<file>.gz` beside every compressible asset, written once at build time, as the widget's build does:
 * the API picks one per request (its static files, shared with the widget's) and never compresses on the fly.
 */
const precompress = (): Plugin => ({
  name: 'console:precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    const dir = options.dir ?? 'dist';
    const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
    await Promise.all(
      files.map(async (name) => {
        const file = path.join(dir, name);
        const original = await readFile(file);
        const variants = [
          {
            ext: '.br',
            body: await brotli(original, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
          },
          { ext: '.gz', body: await gzipAsync(original, { level: constants.Z_BEST_COMPRESSION }) },
        ];
        await Promise.all(
          variants.filter((v) => v.body.length < original.length).map((v) => writeFile(`${file}${v.ext}`, v.body)),
        );
      }),
    );
  },
});

/**
 * Builds into a staging folder and publishes beside the previous builds (the widget's publish-build): a console tab
 * opened before a rebuild still finds the files it loaded.
 */
const publishBesidePreviousBuilds = (): Plugin => {
  let served = '';
  let staging = '';
  let written = false;
  return {
    name: 'console:publish',
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
    },
  };
};

// Served by the API at /console (apps/bff/src/modules/console), so every asset URL lives under /console/.
export default defineConfig({
  base: '/console/',
  plugins: [react(), precompress(), publishBesidePreviousBuilds()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // React and the app in one chunk, the chart library in the Program chart's: e2e/test/size-budget.test.ts holds
    // both to their budgets, so Vite's own warning (500 kB) stays as it is.
  },
  server: { port: 5175 },
});
