import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('@credit/sdk/browser', () => {
  it('bundles without zod or any runtime code of the contract', async () => {
    const result = await build({
      entryPoints: [path.join(here, '../src/browser.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((file) => /zod|packages\/contract\//.test(file))).toEqual([]);
    expect(inputs.some((file) => file.endsWith('routes.generated.ts'))).toBe(true);
  });
});
