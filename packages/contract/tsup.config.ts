import { defineConfig } from 'tsup';

// The published package: ESM for Node 20+ and bundlers, each entry with its bundled declarations (see
// publishConfig.exports). zod and zod-to-openapi stay dependencies, so a partner's app holds one copy of each.
export default defineConfig({
  entry: { index: 'src/index.ts', 'widget-protocol': 'src/widget-protocol.ts' },
  format: ['esm'],
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  dts: true,
  external: ['zod', /^zod\//, '@asteasolutions/zod-to-openapi'],
});
