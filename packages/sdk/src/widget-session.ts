/**
 * `@credit/sdk/widget-session`: the widget frame's own two calls (`POST /widget/session`, `GET /widget/session`),
 * which are internal operations (internal-operations.ts). An entry of the workspace only: it is neither built nor
 * published (package.json lists it in `exports`, not in `publishConfig.exports`), so partners never see it.
 */
import { BaseCreditClient, type CustomAuthOptions } from './base-client.ts';
import { INTERNAL_ROUTES } from './routes.generated.ts';

type WidgetSessionOperationId = 'createWidgetSession' | 'getWidgetSession';

/** A client of the frame's session routes, with the browser entry's transport (no zod). */
export class WidgetSessionClient extends BaseCreditClient<WidgetSessionOperationId> {
  constructor(options: CustomAuthOptions) {
    super(
      { createWidgetSession: INTERNAL_ROUTES.createWidgetSession, getWidgetSession: INTERNAL_ROUTES.getWidgetSession },
      options,
    );
  }
}
