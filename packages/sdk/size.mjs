// Prints what each entry costs a page, minified and gzipped as a bundler would ship it: `@credit/sdk/browser`
// (the route table generated from the contract, no zod: what the widget ships) and the server entry
// `@credit/sdk` bundled with everything it pulls in (the contract's schemas and zod).
// Run: pnpm --filter @credit/sdk size
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = (entry, external = []) =>
  build({
    entryPoints: [path.join(here, entry)],
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
const sizes = (result) => {
  const code = result.outputFiles[0].contents;
  return `${kb(code.length)} minified, ${kb(gzip(code))} minified + gzipped`;
};

const browser = await bundle('src/browser.ts');
const browserInputs = Object.keys(browser.metafile.inputs);
if (browserInputs.some((file) => /zod|packages\/contract\//.test(file)))
  throw new Error('the browser entry bundles zod or the contract');
console.log(`@credit/sdk/browser: ${sizes(browser)} (no zod, no contract code)`);

const server = await bundle('src/index.ts');
console.log(`@credit/sdk (server entry, validates with zod): ${sizes(server)}`);
console.log(
  `  of which the client itself (contract and zod external): ${sizes(await bundle('src/index.ts', ['@credit/contract', 'zod']))}`,
);
const byPackage = new Map();
for (const [file, { bytesInOutput }] of Object.entries(Object.values(server.metafile.outputs)[0].inputs)) {
  const owner =
    file.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/)?.[1] ??
    file.split('/').slice(0, 2).join('/');
  byPackage.set(owner, (byPackage.get(owner) ?? 0) + bytesInOutput);
}
for (const [owner, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6))
  console.log(`  ${owner}: ${kb(bytes)} minified`);
