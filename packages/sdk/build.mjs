// Builds the publishable package: dist/index.js (browser + Node) and dist/webhooks.js (Node), ESM, with
// @credit/contract left as a dependency, and their declarations in dist/types (see publishConfig.exports).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: { index: path.join(here, 'src/index.ts'), webhooks: path.join(here, 'src/webhooks.ts') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: ['@credit/contract', 'zod', 'node:*'],
  logLevel: 'warning',
});

execFileSync(
  'tsc',
  [
    '-p',
    path.join(here, 'tsconfig.build.json'),
    '--noEmit',
    'false',
    '--declaration',
    '--emitDeclarationOnly',
    '--rewriteRelativeImportExtensions',
    '--rootDir',
    path.join(here, 'src'),
    '--outDir',
    path.join(dist, 'types'),
  ],
  { stdio: 'inherit', cwd: here },
);
console.log(`@credit/sdk built into ${path.relative(process.cwd(), dist) || 'dist'}`);
