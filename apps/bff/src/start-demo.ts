import net from 'node:net';
import type { AppContext } from './context.ts';
import { ensureDemoClient } from './modules/clients/service.ts';

export interface RunningDemo {
  url: string;
  close(): Promise<void>;
}

/**
 * Sandbox only: serves the demo partner page (apps/demo) on its own origin, so a newcomer sees the real
 * integration — a server minting user tokens and a page embedding the widget from another origin — in one step.
 * A busy port only costs the demo, never the API.
 */
/** Whether the port is free; checked before the demo client's secret is rotated, so a busy port breaks nothing. */
const portIsFree = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });

export const startDemo = async (ctx: AppContext, apiUrl: string): Promise<RunningDemo | undefined> => {
  const { DEMO_PORT: port, DEMO_HOST: host } = ctx.config;
  if (port === 'off' || port === 0) return undefined;
  if (!(await portIsFree(host, port))) {
    ctx.logger.warn({ port }, 'the demo partner page did not start: its port is in use (set DEMO_PORT)');
    return undefined;
  }
  try {
    const { startDemoServer } = await import('@credit/demo');
    const { client, secret } = await ensureDemoClient(ctx.db, ctx.clock, {
      embedOrigin: `http://${host}:${port}`,
      email: ctx.config.BOOTSTRAP_CLIENT_EMAIL,
    });
    return await startDemoServer({ host, port, apiUrl, clientId: client.id, clientSecret: secret });
  } catch (error) {
    ctx.logger.warn({ err: error }, 'the demo partner page did not start');
    return undefined;
  }
};
