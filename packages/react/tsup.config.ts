import { defineConfig } from 'tsup';

// The publishable package: dist/index.js (ESM, "use client" kept for Next.js) and its declarations, with React
// and the contract left to the partner's bundler (see publishConfig.exports).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  platform: 'neutral',
  target: 'es2020',
  outDir: 'dist',
  clean: true,
  dts: true,
  external: ['react', 'react-dom', 'react/jsx-runtime', '@credit/contract', /^@credit\/contract\//],
  // The loader's reserved heights are inlined (a few bytes); the loader itself is fetched at run time from the API.
  noExternal: [/^@credit\/embed/],
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
  // esbuild drops module directives when bundling; Next.js needs this one to treat the component as client-side.
  banner: { js: "'use client';" },
});
