import { getEvent, listEvents } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { ApiRequest, type HttpRequest } from '../../http/api-request.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as events from './service.ts';

/** Aborts when the caller's connection closes, so a held long poll stops waiting for someone who left. */
const hangUp = (req: HttpRequest): { signal: AbortSignal; release(): void } => {
  const controller = new AbortController();
  const socket = req instanceof ApiRequest ? req.raw.socket : undefined;
  const onClose = () => controller.abort();
  socket?.once('close', onClose);
  return { signal: controller.signal, release: () => socket?.off('close', onClose) };
};

export const eventRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listEvents, async ({ ctx, query, caller, req }) => {
      const held = hangUp(req);
      try {
        const page = await events.listEvents(ctx, caller, query, held.signal);
        return { data: page.items, pagination: page.pagination };
      } finally {
        held.release();
      }
    }),
    bindRoute(ctx, getEvent, async ({ ctx, params, caller }) => ({
      data: await events.getEvent(ctx, caller, params.eventId),
    })),
  ],
});
