import { defineConfig } from 'tsup';

// The publishable package: ESM for Node 20+ and browsers, each entry with its bundled declarations (see
// publishConfig.exports). The contract stays a dependency; the browser entry reaches none of its runtime code.
export default defineConfig({
  entry: { index: 'src/index.ts', browser: 'src/browser.ts', webhooks: 'src/webhooks.ts' },
  format: ['esm'],
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  dts: true,
  external: ['@credit/contract', 'zod', /^node:/],
  // Keep `node:crypto` as written: the webhooks entry is for Node only, and the prefix tells bundlers so.
  removeNodeProtocol: false,
});
