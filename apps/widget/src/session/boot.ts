import { WidgetApiError } from '../api/errors.ts';
import { connectToHost, type LaunchContext, type LaunchSettings } from '../bridge/index.ts';
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
 * The host's settings as soon as they arrive, and the session once the token is exchanged. The
 * settings come first so the loading screen already has the host's theme and language.
 */
export const boot = async (launch: LaunchContext, onSettings: (settings: LaunchSettings) => void): Promise<BootResult> => {
  const { userToken, settings } = await connect(launch);
  onSettings(settings);
  if (!userToken) {
    throw new WidgetApiError(
      401,
      'INVALID_TOKEN',
      launch.mode === 'standalone' ? 'The widget was opened without a user token.' : 'The host sent no user token.',
    );
  }
  return { settings, session: await startSession(userToken) };
};
