import type { HostBridge, LaunchSettings } from '../bridge/index.ts';
import { WidgetError } from '../errors/widget-error.ts';
import { detectLocale } from '../i18n/index.ts';
import type { SessionRefresher } from './refresh.ts';
import type { WidgetSession, WidgetSessionState } from './session.ts';

export interface BootResult {
  settings: LaunchSettings;
  session: WidgetSessionState;
}

export interface BootDependencies {
  bridge: HostBridge;
  session: WidgetSession;
  refresher: SessionRefresher;
}

/** The host's token may already have expired while the page waited; one fresh token from the host, then give up. */
const startWithFreshTokenIfExpired = async (
  deps: BootDependencies,
  userToken: string,
  settings: LaunchSettings,
): Promise<WidgetSessionState> => {
  try {
    // The language the frame shows (as App picks it), kept by the server for the user's alert e-mails.
    return await deps.session.start(userToken, settings.locale ?? deps.bridge.launch.fragmentSettings.locale ?? detectLocale());
  } catch (error) {
    if (error instanceof WidgetError && error.code === 'INVALID_TOKEN') return deps.refresher.refresh();
    throw error;
  }
};

/**
 * The host's settings as soon as they arrive, and the session once the token is exchanged. The
 * settings come first so the loading screen already has the host's theme and language.
 */
export const boot = async (deps: BootDependencies, onSettings: (settings: LaunchSettings) => void): Promise<BootResult> => {
  const { launch } = deps.bridge;
  if (launch.originRefused) {
    throw new WidgetError('ORIGIN_NOT_ALLOWED', 'A framed widget with a token in its fragment needs a valid parent origin.');
  }
  const { userToken, settings } = await deps.bridge.connect();
  onSettings(settings);
  if (!userToken) {
    throw new WidgetError(
      'INVALID_TOKEN',
      launch.mode === 'standalone' ? 'The widget was opened without a user token.' : 'The host sent no user token.',
    );
  }
  const session = await startWithFreshTokenIfExpired(deps, userToken, settings);
  // Once the cookie carries the session, nothing in the frame may still hold the user token. Bearer mode needs it.
  if (session.mode === 'cookie') deps.bridge.forgetToken(settings);
  return { settings, session };
};

/**
 * One boot per attempt, so React's StrictMode double effect does not exchange the token twice; the
 * error screen's retry is the next attempt.
 */
export class BootAttempts {
  private readonly runs = new Map<number, Promise<BootResult>>();

  constructor(private readonly deps: BootDependencies) {}

  run(attempt: number, onSettings: (settings: LaunchSettings) => void): Promise<BootResult> {
    let run = this.runs.get(attempt);
    if (!run) {
      run = boot(this.deps, onSettings);
      this.runs.set(attempt, run);
    }
    return run;
  }
}
