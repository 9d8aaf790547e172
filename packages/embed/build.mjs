// Builds dist/embed.js (the file the API serves at /embed.js) and keeps it within its size budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
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
const gzipped = gzipSync(code, { level: 9 }).length;
console.log(`embed.js: ${code.length} bytes, ${gzipped} bytes gzip (budget ${BUDGET_BYTES})`);
if (gzipped > BUDGET_BYTES) {
  console.error(`embed.js is over its ${BUDGET_BYTES} byte gzip budget`);
  process.exit(1);
}
