import path from 'node:path';
import { build } from 'esbuild';
import { DEMO_SOURCE_DIR } from '../source-dir.ts';

const entry = path.join(DEMO_SOURCE_DIR, 'react-page/client.tsx');

/**
 * Bundles the React page's script (React, react-dom and `@credit/react`) in memory, as a partner's build
 * would: the demo has no build step of its own, and the first request pays about a quarter of a second.
 */
export const bundleReactPage = async (): Promise<Uint8Array> => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no bundle for the React page');
  return output.contents;
};
