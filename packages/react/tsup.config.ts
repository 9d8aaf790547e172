import { defineConfig } from 'tsup';

// The published package: dist/index.js (ESM, "use client" kept for Next.js) and its declarations, self-contained:
// the loader's few constants and the widget protocol's types are inlined, so the only thing a partner brings is React
// (a peer dependency). @credit/contract and @credit/embed are dev dependencies here (see docs/partner/install.md).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  platform: 'neutral',
  target: 'es2020',
  outDir: 'dist',
  clean: true,
  // The protocol's types (a file without imports) are written into index.d.ts instead of imported from the contract:
  // the path mapping points the declaration bundler at the source, which it then inlines.
  dts: {
    resolve: [/^@credit\/contract/],
    compilerOptions: { paths: { '@credit/contract/widget-protocol': ['../contract/src/widget-protocol.ts'] } },
  },
  external: ['react', 'react-dom', 'react/jsx-runtime'],
  // The loader's reserved heights are inlined (a few bytes); the loader itself is fetched at run time from the API.
  noExternal: [/^@credit\/embed/, /^@credit\/contract/],
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
  // esbuild drops module directives when bundling; Next.js needs this one to treat the component as client-side.
  banner: { js: "'use client';" },
});
