import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../apps/bff/test/helpers/harness.ts';

const run = promisify(execFile);
const partnerDocs = path.resolve(import.meta.dirname, '../../partner');
const MARKER = '<!-- runs in: docs/samples/test/curl.test.ts -->';

/** Every `sh` block of docs/partner announced by MARKER, with the page it is on. */
const curlBlocks = readdirSync(partnerDocs)
  .filter((name) => name.endsWith('.md'))
  .flatMap((name) => {
    const text = readFileSync(path.join(partnerDocs, name), 'utf8');
    return [...text.matchAll(/<!-- runs in: docs\/samples\/test\/curl\.test\.ts -->\n+```sh\n([\s\S]*?)```/g)].map(
      (match, index) => ({ page: `${name} #${index + 1}`, script: match[1] as string }),
    );
  });

let app: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  const client = await app.createClient();
  // What the start banner's `export` lines give a reader.
  env = { API: app.url, CLIENT_ID: client.id, CLIENT_SECRET: client.secret, TOKEN: await app.token(client) };
});
afterAll(() => app.close());

describe('the curl examples in docs/partner, run with bash and curl against a real instance', () => {
  it('finds them', () => {
    expect(curlBlocks.length).toBeGreaterThanOrEqual(2);
    expect(readFileSync(path.join(partnerDocs, 'quickstart-curl.md'), 'utf8')).toContain(MARKER);
  });

  it.each(curlBlocks.map((block) => [block.page, block.script]))(
    '%s succeeds, every call answering 2xx',
    async (_page, script) => {
      // Each curl fails the script on a 4xx/5xx answer (the examples use -s, which alone would hide one).
      const strict = `set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; echo; }\n${script}`;
      const { stdout } = await run('bash', ['-c', strict], { env: { ...process.env, ...env }, timeout: 20_000 });
      for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
        expect(JSON.parse(line), line).not.toHaveProperty('error');
      }
    },
  );
});
