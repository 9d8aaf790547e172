import { WidgetApiError } from '../api/errors.ts';
import { connectToHost, forgetLaunchToken, type LaunchContext, type LaunchSettings } from '../bridge/index.ts';
import { refreshSession } from './refresh.ts';
import { startSession, type WidgetSessionState } from './session.ts';

export interface BootResult {
  settings: LaunchSettings;
  session: WidgetSessionState;
}

let connection: Promise<{ userToken: string | null; settings: LaunchSettings }> | null = null;

/** Starts listening to the host at once (the loader waits for `frame_loaded`); safe to call more than once. */
export const connect = (launch: LaunchContext) => {
  connection ??= connectToHost(launch);
  return connection;
};

/**
 * Once the cookie carries the session, nothing in the frame may still hold the user token: the
 * settled connection and the launch context both drop it. Bearer mode needs it, so it stays.
 */
const forgetTokenIfCookie = (launch: LaunchContext, settings: LaunchSettings, session: WidgetSessionState) => {
  if (session.mode !== 'cookie') return;
  connection = Promise.resolve({ userToken: null, settings });
  forgetLaunchToken(launch);
};

/** The host's token may already have expired while the page waited; one fresh token from the host, then give up. */
const startWithFreshTokenIfExpired = async (userToken: string): Promise<WidgetSessionState> => {
  try {
    return await startSession(userToken);
  } catch (error) {
    if (error instanceof WidgetApiError && error.status === 401 && error.code === 'INVALID_TOKEN') return refreshSession();
    throw error;
  }
};

/**
 * The host's settings as soon as they arrive, and the session once the token is exchanged. The
 * settings come first so the loading screen already has the host's theme and language.
 */
export const boot = async (launch: LaunchContext, onSettings: (settings: LaunchSettings) => void): Promise<BootResult> => {
  if (launch.originRefused) {
    throw new WidgetApiError(
      403,
      'ORIGIN_NOT_ALLOWED',
      'A framed widget with a token in its fragment needs a valid parent origin.',
    );
  }
  const { userToken, settings } = await connect(launch);
  onSettings(settings);
  if (!userToken) {
    throw new WidgetApiError(
      401,
      'INVALID_TOKEN',
      launch.mode === 'standalone' ? 'The widget was opened without a user token.' : 'The host sent no user token.',
    );
  }
  const session = await startWithFreshTokenIfExpired(userToken);
  forgetTokenIfCookie(launch, settings, session);
  return { settings, session };
};
