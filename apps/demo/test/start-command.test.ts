import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnBuilt } from '../../bff/test/helpers/processes.ts';
import { builtEntry } from '../../bff/test/helpers/server-build.ts';
import { demoPersona } from '../src/personas.ts';

const run = promisify(execFile);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Started {
  banner: string;
  stop(): Promise<void>;
}

/** `pnpm start`: the built start command (apps/bff/dist/main.js) in its own process, on PGlite, until its banner is out. */
const start = (env: Record<string, string>): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawnBuilt(builtEntry('main'), [], { DEMO_HOST: 'localhost', ...env });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/\/v1\/users"\n/.test(output)) {
        resolve({
          banner: output,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the start command exited with ${code}:\n${output}`)));
  });

/** The banner's shell lines, pasted into bash, followed by `commands`: what a newcomer does. */
const paste = async (banner: string, commands: string) => {
  const lines = banner.split('\n').filter((line) => /^\s+(export |curl )/.test(line));
  const { stdout } = await run('bash', ['-euc', [...lines.filter((l) => l.includes('export ')), commands].join('\n')]);
  return stdout;
};

// Two starts of the built server: 6-15 s at load 2-9 (under tsx, before the tests ran the build: 9-18 s).
describe('the start command', { timeout: 60_000 }, () => {
  it('prints shell lines that make the README’s commands runnable and show what the demo did, the same at every start', async () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credit-demo-')), DEMO_PORT: String(await freePort()) };
    const first = await start(env);
    let second: Started | undefined;
    try {
      expect(first.banner).toMatch(/Demo client:\s+cli_sbx_demo_maple_bank/);
      expect(first.banner).toMatch(/export CLIENT_ID='cli_sbx_demo_maple_bank' CLIENT_SECRET='sk_demo_[0-9a-f]{40}'/);
      const demoUrl = /Demo bank:\s+(\S+)/.exec(first.banner)?.[1] as string;
      const apiUrl = /API:\s+(\S+?)(?:\/v1)?\s/.exec(first.banner)?.[1] as string;

      // A customer of the demo enrols in the widget (what the frame does with the page's user token).
      const customer = `demo-${Date.now().toString(16)}`;
      const page = await (await fetch(`${demoUrl}/?user=${customer}`)).text();
      const userToken = JSON.parse(/<script type="application\/json" id="demo-config">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}')
        .userToken as string;
      const { firstName: _f, lastName: _l, ssnLast4: ssn, ...identity } = demoPersona(customer);
      const enrolled = await fetch(`${apiUrl}/v1/users/enroll`, {
        method: 'POST',
        headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ssn, ...identity }),
      });
      expect(enrolled.status).toBe(201);

      // The newcomer pastes the printed lines, then looks the demo's customer up and runs the README's token call.
      const found = JSON.parse(
        await paste(first.banner, `curl -s -H "Authorization: Bearer $TOKEN" "$API/v1/users?externalUserId=${customer}"`),
      );
      expect(found.data).toHaveLength(1);
      expect(found.data[0]).toMatchObject({ externalUserId: customer, status: 'pending_verification' });
      const token = JSON.parse(
        await paste(first.banner, 'curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials "$API/oauth/token"'),
      );
      expect(token.token_type).toBe('Bearer');
      expect(token.scope).toContain('admin');
      // The partner's own client, as the SDK reads it: CREDIT_API_URL is the base URL (no /v1).
      expect(first.banner).toMatch(
        /export CREDIT_API_URL='http:\/\/[^']+' CREDIT_CLIENT_ID='cli_sbx_\w+' CREDIT_CLIENT_SECRET='sk_\w+'/,
      );
      const own = JSON.parse(
        await paste(
          first.banner,
          'curl -s -u "$CREDIT_CLIENT_ID:$CREDIT_CLIENT_SECRET" -d grant_type=client_credentials "$CREDIT_API_URL/oauth/token"',
        ),
      );
      expect(own.token_type).toBe('Bearer');
      await first.stop();

      second = await start(env);
      const exportsOf = (banner: string) => banner.split('\n').filter((line) => line.includes('export CLIENT_ID'));
      expect(exportsOf(second.banner)).toEqual(exportsOf(first.banner));
      const again = JSON.parse(
        await paste(second.banner, `curl -s -H "Authorization: Bearer $TOKEN" "$API/v1/users?externalUserId=${customer}"`),
      );
      expect(again.data[0].externalUserId).toBe(customer);
    } finally {
      await first.stop();
      await second?.stop();
    }
  });
});
