import { type Dispatcher, startDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './in-process-app.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

export interface WebhookWorld {
  app: TestApp;
  receiver: Receiver;
  /** Driven by hand (`runOnce`), so each step of a schedule is observed exactly. */
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/** An app whose webhooks reach a real HTTPS receiver it trusts, with a dispatcher that does not poll. */
export const startWebhookWorld = async (config: Record<string, string> = {}): Promise<WebhookWorld> => {
  const receiver = await startReceiver();
  const app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile, ...config } });
  const dispatcher = startDispatcher(app.ctx, { poll: false });
  return {
    app,
    receiver,
    dispatcher,
    close: async () => {
      await dispatcher.stop();
      await app.close();
      await receiver.close();
    },
  };
};
