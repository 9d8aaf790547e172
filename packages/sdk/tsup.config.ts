import { defineConfig } from 'tsup';

// The publishable package: ESM for Node 20+ and browsers, each entry with its bundled declarations (see
// publishConfig.exports). The contract stays a dependency; the browser entry reaches none of its runtime code.
// `cli` is the `credit` bin (Node only; its source's `#!/usr/bin/env node` line stays first in dist/cli.js).
export default defineConfig({
  entry: { index: 'src/index.ts', browser: 'src/browser.ts', webhooks: 'src/webhooks.ts', cli: 'src/cli/main.ts' },
  format: ['esm'],
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  // The bin is run, never imported: no declarations.
  dts: { entry: { index: 'src/index.ts', browser: 'src/browser.ts', webhooks: 'src/webhooks.ts' } },
  external: ['@credit/contract', 'zod', /^node:/],
  // Keep `node:crypto` as written: the webhooks entry is for Node only, and the prefix tells bundlers so.
  removeNodeProtocol: false,
});
