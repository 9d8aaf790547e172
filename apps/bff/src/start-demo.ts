import net from 'node:net';
import type { AppContext } from './context.ts';
import { DEMO_CLIENT_ID, ensureDemoClient } from './modules/clients/service.ts';

export interface RunningDemo {
  url: string;
  /** The demo bank's own credentials, printed by the start command so a newcomer can read what the demo did. */
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * The demo client's secret: derived from the instance's token-signing key, so it is the same at every start
 * and on every instance sharing the database (none of them rotates it from under another), is never stored
 * (only its hash is, like every secret), and changes when that key is rotated.
 */
export const demoClientSecret = (ctx: AppContext) => `sk_demo_${ctx.tokens.hash('sandbox.demo-client-secret:v1').slice(0, 40)}`;

/** Whether the port is free; checked before the demo client is touched, so a busy port breaks nothing. */
const portIsFree = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });

/**
 * Sandbox only: serves the demo partner page (apps/demo) on its own origin, so a newcomer sees the real
 * integration — a server minting user tokens and a page embedding the widget from another origin — in one step.
 * A busy port only costs the demo, never the API.
 */
export const startDemo = async (ctx: AppContext, apiUrl: string): Promise<RunningDemo | undefined> => {
  const { DEMO_PORT: port, DEMO_HOST: host } = ctx.config;
  if (port === 'off' || port === 0) return undefined;
  if (!(await portIsFree(host, port))) {
    ctx.logger.warn({ port }, 'the demo partner page did not start: its port is in use (set DEMO_PORT)');
    return undefined;
  }
  try {
    const { startDemoServer } = await import('@credit/demo');
    const clientSecret = demoClientSecret(ctx);
    await ensureDemoClient(ctx.db, ctx.clock, {
      embedOrigin: `http://${host}:${port}`,
      email: ctx.config.BOOTSTRAP_CLIENT_EMAIL,
      secret: clientSecret,
    });
    const demo = await startDemoServer({ host, port, apiUrl, clientId: DEMO_CLIENT_ID, clientSecret });
    return { ...demo, clientId: DEMO_CLIENT_ID, clientSecret };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'the demo partner page did not start');
    return undefined;
  }
};
