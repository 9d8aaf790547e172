// Builds dist/embed.js (the file the API serves at /embed.js) with its precompressed .br and .gz beside it
// (the API picks one per request and never compresses on the fly), and keeps it within its size budget.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 5 * 1024;
const here = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(here, 'dist/embed.js');

await build({
  entryPoints: [path.join(here, 'src/index.ts')],
  outfile,
  bundle: true,
  format: 'iife',
  minify: true,
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
});

const code = readFileSync(outfile);
const gzipBody = gzipSync(code, { level: constants.Z_BEST_COMPRESSION });
const brotliBody = brotliCompressSync(code, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
  },
});
writeFileSync(`${outfile}.gz`, gzipBody);
writeFileSync(`${outfile}.br`, brotliBody);
const gzipped = gzipBody.length;
console.log(`embed.js: ${code.length} bytes, ${gzipped} bytes gzip, ${brotliBody.length} bytes brotli (budget ${BUDGET_BYTES})`);
if (gzipped > BUDGET_BYTES) {
  console.error(`embed.js is over its ${BUDGET_BYTES} byte gzip budget`);
  process.exit(1);
}
