// Prints what the browser entry costs a page: `@credit/sdk` bundled with everything it pulls in (the
// contract's schemas and zod), minified and gzipped, as a bundler would ship it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = (external) =>
  build({
    entryPoints: [path.join(here, 'src/index.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    metafile: true,
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
const gzip = (bytes) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const result = await bundle([]);
const code = result.outputFiles[0].contents;
// A page that already ships the contract (the widget does) pays only for the client itself.
const own = (await bundle(['@credit/contract', 'zod'])).outputFiles[0].contents;

const byPackage = new Map();
for (const [file, { bytesInOutput }] of Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs)) {
  const owner =
    file.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/)?.[1] ??
    file.split('/').slice(0, 2).join('/');
  byPackage.set(owner, (byPackage.get(owner) ?? 0) + bytesInOutput);
}
console.log(`@credit/sdk browser entry: ${kb(code.length)} minified, ${kb(gzip(code))} minified + gzipped`);
console.log(`  of which the client itself (contract and zod external): ${kb(own.length)} minified, ${kb(gzip(own))} gzipped`);
for (const [owner, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6))
  console.log(`  ${owner}: ${kb(bytes)} minified`);
