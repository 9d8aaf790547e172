import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServerProcess } from './helpers/processes.ts';

/** The same bound as processes.test.ts: each step spawns the built CLI or server, which opens its own PGlite. */
const PROCESS_TEST_TIMEOUT_MS = 180_000;
const LINK = /https?:\/\/\S+\/console\/auth\?token=cst_sbx_[A-Za-z0-9]{40}/;

/** Opens a console link on `server` (its path and query, whatever origin it names): the answer to a first visit. */
const open = (server: string, link: string) => {
  const { pathname, search } = new URL(link);
  return fetch(`${server}${pathname}${search}`, { redirect: 'manual' });
};

describe('console links for operators', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('`pnpm clients console` prints a link the server opens once, and `pnpm start` prints one in its banner', async () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credit-console-')), PUBLIC_URL: 'https://api.bank.example' };
    const created = await runCli(['create', '--name', 'Console Bank', '--email', 'ops@console-bank.test'], env);
    expect(created.code, created.stderr).toBe(0);
    const { clientId } = JSON.parse(created.stdout);

    const refused = await runCli(['console', clientId, '--role', 'owner'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--role is one of viewer, editor');
    const printed = await runCli(
      ['console', clientId, '--role', 'editor', '--staff-id', 'emp-9', '--email', 'ana@console-bank.test'],
      env,
    );
    expect(printed.code, printed.stderr).toBe(0);
    const link = JSON.parse(printed.stdout);
    expect(link).toMatchObject({ clientId, role: 'editor', staff: { id: 'emp-9', email: 'ana@console-bank.test' } });
    expect(link.url).toMatch(/^https:\/\/api\.bank\.example\/console\/auth\?token=cst_sbx_/);

    const server = await startServerProcess({ DATA_DIR: env.DATA_DIR });
    try {
      const first = await open(server.url, link.url);
      expect(first.status).toBe(303);
      expect(first.headers.get('set-cookie')).toMatch(/^console_session=css_sbx_/);
      expect((await open(server.url, link.url)).status).toBe(410);

      const banner = server.output();
      expect(banner).toMatch(/Console:\s+http/);
      const fromBanner = LINK.exec(banner)?.[0] as string;
      expect(fromBanner.startsWith(server.url)).toBe(true);
      const opened = await open(server.url, fromBanner);
      expect(opened.status).toBe(303);
      const session = await fetch(`${server.url}/console/session`, {
        headers: { cookie: (opened.headers.get('set-cookie') ?? '').split(';')[0] as string },
      });
      expect(((await session.json()) as { data: { role: string } }).data.role).toBe('editor');
    } finally {
      await server.stop();
    }
  });
});
