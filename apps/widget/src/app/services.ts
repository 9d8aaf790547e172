import type { WidgetEvent } from '@credit/contract/widget-protocol';
import type { CreditClient } from '@credit/sdk/browser';
import { applyDisclosure } from '../bridge/disclosure.ts';
import { ScreenState } from '../bridge/events.ts';
import { HostBridge, type HostBridgeEnvironment } from '../bridge/host.ts';
import type { LaunchContext } from '../bridge/launch.ts';
import { BootAttempts } from '../session/boot.ts';
import { SessionRefresher } from '../session/refresh.ts';
import { type Fetch, WidgetSession, widgetClient } from '../session/session.ts';
import { widgetSessionAuth } from '../session/session-auth.ts';

/** Everything with state in the frame: made once by main.tsx, handed to the screens through context. */
export interface WidgetServices {
  launch: LaunchContext;
  bridge: HostBridge;
  session: WidgetSession;
  refresher: SessionRefresher;
  /** `@credit/sdk`'s browser client, authenticated by the widget session. */
  api: CreditClient;
  screens: ScreenState;
  boots: BootAttempts;
  /** Sends a public event (ready, enrolled, offer_clicked, …) to the host. */
  emitEvent: (event: WidgetEvent) => void;
}

export interface WidgetServicesOptions {
  env?: HostBridgeEnvironment;
  fetch?: Fetch;
}

export const createWidgetServices = (launch: LaunchContext, options: WidgetServicesOptions = {}): WidgetServices => {
  const bridge = new HostBridge(launch, options.env);
  const session = new WidgetSession(launch.parentOrigin, options.fetch);
  const refresher = new SessionRefresher(session, () => bridge.requestFreshToken());
  const api = widgetClient(widgetSessionAuth(session, refresher), options.fetch);
  // Every public event passes the client's disclosure setting, as the server told it to this session.
  const screens = new ScreenState((event) => bridge.sendEvent(applyDisclosure(event, session.current()?.disclosure)));
  bridge.onView(screens.setView);
  return {
    launch,
    bridge,
    session,
    refresher,
    api,
    screens,
    boots: new BootAttempts({ bridge, session, refresher }),
    emitEvent: screens.emit,
  };
};
