import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTokenFrom, tokenRefresher } from '../src/token-refresh.ts';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('dist/embed.js', () => {
  it('builds as one IIFE within 5 KB gzip, never posting to "*" and without zod', () => {
    const output = execFileSync(process.execPath, ['build.mjs'], { cwd: packageDir, encoding: 'utf8' });
    expect(output).toMatch(/embed\.js: \d+ bytes, \d+ bytes gzip/);
    const code = readFileSync(path.join(packageDir, 'dist/embed.js'));
    expect(gzipSync(code).length).toBeLessThanOrEqual(5 * 1024);
    const text = code.toString();
    expect(text.startsWith('"use strict";(()=>{')).toBe(true);
    expect(text).not.toMatch(/postMessage\([^)]*["']\*["']/);
    expect(text).not.toContain('zod');
    expect(text).toContain('credit-widget:event');
  });
});

describe('token refresh', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shares one pending refresh among concurrent requests', async () => {
    let calls = 0;
    const refresh = tokenRefresher(async () => {
      calls += 1;
      return 'ut_fresh';
    });
    expect(await Promise.all([refresh(), refresh(), refresh()])).toEqual(['ut_fresh', 'ut_fresh', 'ut_fresh']);
    expect(calls).toBe(1);
    await refresh();
    expect(calls).toBe(2);
  });

  it('accepts a plain string, and gives null when absent, failing or not a user token', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await tokenRefresher(() => 'ut_sync')()).toBe('ut_sync');
    expect(await tokenRefresher(undefined)()).toBeNull();
    expect(await tokenRefresher(() => Promise.reject(new Error('down')))()).toBeNull();
    expect(await tokenRefresher(() => 'at_not_a_user_token')()).toBeNull();
    expect(await tokenRefresher((() => undefined) as unknown as () => string)()).toBeNull();
  });

  it('POSTs the declarative data-token-url and reads { userToken }', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ userToken: 'ut_from_url' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchTokenFrom('/token?user=a')()).toBe('ut_from_url');
    expect(fetchMock).toHaveBeenCalledWith(
      '/token?user=a',
      expect.objectContaining({ method: 'POST', credentials: 'same-origin' }),
    );

    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    await expect(fetchTokenFrom('/token')()).rejects.toThrow('answered 500');
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
    await expect(fetchTokenFrom('/token')()).rejects.toThrow('without a userToken');
  });
});
