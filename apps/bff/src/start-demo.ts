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
export const startDemo = async (ctx: AppContext, apiUrl: string): Promise<RunningDemo | undefined> => {
  const { DEMO_PORT: port, DEMO_HOST: host } = ctx.config;
  if (port === 'off' || port === 0) return undefined;
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
