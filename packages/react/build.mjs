// Builds the publishable package: dist/index.js (ESM, "use client" kept for Next.js) with React and the
// contract left to the partner's bundler, and the declarations in dist/types (see publishConfig.exports).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: { index: path.join(here, 'src/index.ts') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2020',
  jsx: 'automatic',
  // The loader's reserved heights are inlined (a few bytes); the loader itself is fetched at run time from the API.
  external: ['react', 'react-dom', 'react/jsx-runtime', '@credit/contract', '@credit/contract/*'],
  // esbuild drops module directives when bundling; Next.js needs this one to treat the component as client-side.
  banner: { js: "'use client';" },
  logLevel: 'error',
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
console.log(`@credit/react built into ${path.relative(process.cwd(), dist) || 'dist'}`);
