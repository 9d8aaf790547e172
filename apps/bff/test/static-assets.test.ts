import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/http/accept-encoding.ts';
import { EMBED_SCRIPT_FILE, WIDGET_ASSETS_DIR, WIDGET_DIST_DIR } from '../src/modules/widget/static-files.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes on the wire: fetch would decompress them, so node:http it is. */
  body: Buffer;
}

/** A request whose path is sent exactly as written (no URL normalisation of `..` or `%2e`). */
const raw = (rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(app.url);
    const req = http.request({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** The widget's entry script and stylesheet, as its built page references them. */
const builtPage = readFileSync(path.join(WIDGET_DIST_DIR, 'index.html'), 'utf8');
const mainScript = /<script[^>]+src="\/widget\/assets\/([^"]+\.js)"/.exec(builtPage)?.[1] as string;
const stylesheet = /<link[^>]+href="\/widget\/assets\/([^"]+\.css)"/.exec(builtPage)?.[1] as string;
const onDisk = (name: string) => readFileSync(path.join(WIDGET_ASSETS_DIR, name));

const expectVaried = (res: RawResponse) => expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');

describe('the build', () => {
  it('writes a brotli and a gzip copy beside every script and stylesheet, and beside embed.js', () => {
    const originals = readdirSync(WIDGET_ASSETS_DIR)
      .filter((name) => /\.(js|css)$/.test(name))
      .map((name) => path.join(WIDGET_ASSETS_DIR, name));
    expect(originals.length).toBeGreaterThanOrEqual(2);
    for (const file of [...originals, EMBED_SCRIPT_FILE]) {
      const original = readFileSync(file);
      const br = readFileSync(`${file}.br`);
      const gz = readFileSync(`${file}.gz`);
      expect(brotliDecompressSync(br).equals(original), file).toBe(true);
      expect(gunzipSync(gz).equals(original), file).toBe(true);
      expect(br.length).toBeLessThan(gz.length);
      // Below a kilobyte (a stylesheet split out with a shared chunk) gzip's own header outweighs what it saves.
      if (original.length >= 1024) expect(gz.length, file).toBeLessThan(original.length / 2);
    }
  });
});

describe('GET /widget/assets/*', () => {
  it('sends the main script brotli-compressed to a browser that accepts gzip and br', async () => {
    expect(mainScript).toBeTruthy();
    const res = await raw(`/widget/assets/${mainScript}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toBeUndefined();
    expectVaried(res);
    expect(res.body.length).toBeLessThan(onDisk(mainScript).length / 3);
    expect(brotliDecompressSync(res.body).equals(onDisk(mainScript))).toBe(true);
  });

  it('sends gzip to a client without brotli, whatever the order or weights say', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=1, br;q=0.5', 'x-gzip', 'GZIP;Q=0.9']) {
      const res = await raw(`/widget/assets/${mainScript}`, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expectVaried(res);
      expect(gunzipSync(res.body).equals(onDisk(mainScript)), accept).toBe(true);
    }
  });

  it('sends the file as it is when no compression is accepted', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await raw(`/widget/assets/${mainScript}`, accept ? { 'accept-encoding': accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(onDisk(mainScript).length);
      expectVaried(res);
      expect(res.body.equals(onDisk(mainScript))).toBe(true);
    }
  });

  it('compresses the stylesheet too, with its own content type, and answers HEAD with the same headers', async () => {
    const res = await raw(`/widget/assets/${stylesheet}`, { 'accept-encoding': 'br' });
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(brotliDecompressSync(res.body).equals(onDisk(stylesheet))).toBe(true);
    const head = await raw(`/widget/assets/${stylesheet}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(res.body.length));
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('is a 404 (never a 500, never a file outside the assets) for missing names and every kind of traversal', async () => {
    const attempts = [
      '/widget/assets/nope-12345678.js',
      `/widget/assets/${mainScript}.br`,
      `/widget/assets/${mainScript}.gz`,
      '/widget/assets/',
      '/widget/assets/.',
      '/widget/assets/..',
      '/widget/assets/index.html',
      '/widget/assets/..%2f..%2fpackage.json',
      '/widget/assets/..%2F..%2F..%2F..%2Fpackage.json',
      '/widget/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/widget/assets/%2E%2E/%2E%2E/package.json',
      '/widget/assets/..%5c..%5cpackage.json',
      '/widget/assets/..%252f..%252fpackage.json',
      '/widget/assets/../../../package.json',
      '/widget/assets/..\\..\\package.json',
      '/widget/assets/%E0%A4%A',
      '/widget/assets/%ZZ',
      '/widget/assets/%00',
      `/widget/assets/${mainScript}%00.png`,
      '/widget/assets//etc/passwd',
      '/widget/assets/%2fetc%2fpasswd',
    ];
    for (const attempt of attempts) {
      for (const encoding of ['br', '']) {
        const res = await raw(attempt, encoding ? { 'accept-encoding': encoding } : {});
        expect(res.status, attempt).toBe(404);
        expect(res.headers['content-encoding'], attempt).toBeUndefined();
        const body = res.body.toString('utf8');
        expect(JSON.parse(body).error.code, attempt).toBe('NOT_FOUND');
        expect(body).not.toContain('credit-platform');
        expect(body).not.toContain('root:');
      }
    }
  });

  it('leaves other methods to the API (a 404, not the file)', async () => {
    const res = await raw(`/widget/assets/${mainScript}`, {}, 'POST');
    expect(res.status).toBe(404);
  });
});

describe('GET /embed.js', () => {
  it('is compressed as well, with its short cache and readable cross-origin', async () => {
    const original = readFileSync(EMBED_SCRIPT_FILE);
    const br = await raw('/embed.js', { 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=300');
    expect(br.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expectVaried(br);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gz = await raw('/embed.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);

    const plain = await raw('/embed.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expectVaried(plain);
    expect(plain.body.equals(original)).toBe(true);
  });

  it('does not hand out its compressed copies by name', async () => {
    for (const name of ['/embed.js.br', '/embed.js.gz', '/embed.js/..%2fembed.js.br']) {
      expect((await raw(name)).status, name).toBe(404);
    }
  });
});

describe('chooseEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, both, 'identity'],
    ['', both, 'identity'],
    ['gzip, br', both, 'br'],
    ['br, gzip', both, 'br'],
    ['gzip, br', ['gzip'], 'gzip'],
    ['br', ['gzip'], 'identity'],
    ['*', both, 'br'],
    ['*;q=0', both, 'identity'],
    ['*;q=0.5, br;q=0', both, 'gzip'],
    ['gzip;q=0.8, br;q=0.4', both, 'gzip'],
    ['br;q=0.5, identity', both, 'identity'],
    ['br;q=1.0, identity;q=0.5', both, 'br'],
    ['identity;q=0, *;q=0', both, 'identity'],
    ['br;q=abc, gzip', both, 'gzip'],
    ['br;q=2, gzip', both, 'gzip'],
    [' BR ; Q=0.9 ,gzip;q=0.1', both, 'br'],
    [',,;, =, gzip', both, 'gzip'],
  ] as const)('%j of %j → %s', (header, available, expected) => {
    expect(chooseEncoding(header, available)).toBe(expected);
  });
});
