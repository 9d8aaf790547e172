import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** What `credit listen` keeps between runs: the local signing secret, and the last event it handled. */
export interface ListenState {
  version: 1;
  /** The API and client the position belongs to: another one starts again from its latest event. */
  api: string;
  clientId: string;
  /** `whsec_` + base64 of 32 random bytes, made on the first run and kept, so a receiver configured once stays so. */
  secret: string;
  /**
   * The last event handled (forwarded, or left out by `--events`); null: none was recorded yet when listening began,
   * so every event listed is new. Absent: nothing to resume, begin at the latest event.
   */
  after?: string | null;
}

/** `$XDG_CONFIG_HOME/credit/listen-<clientId>.json`, `~/.config/…` when XDG_CONFIG_HOME is unset. */
export const defaultStatePath = (clientId: string, env: Record<string, string | undefined> = process.env): string => {
  const config =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(config, 'credit', `listen-${clientId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
};

/** A Standard Webhooks secret, as `new Webhook(secret)` of the `standardwebhooks` package takes it by default. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const isState = (value: unknown): value is ListenState => {
  const state = value as Partial<ListenState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    typeof state.api === 'string' &&
    typeof state.clientId === 'string' &&
    typeof state.secret === 'string' &&
    state.secret.length > 0 &&
    (state.after === undefined || state.after === null || typeof state.after === 'string')
  );
};

/** The state in `file`; undefined when there is none yet. A file that is not one is an error, never overwritten. */
export const readState = async (file: string): Promise<ListenState | undefined> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isState(parsed)) {
    throw new Error(`${file} is not a state file of credit listen: move it away, or pass another with --state`);
  }
  return parsed;
};

/** Writes a whole new file, then renames it over the old one: an interrupted write never leaves half a state. */
export const writeState = async (file: string, state: ListenState): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  // Only its owner may read it: it holds the signing secret.
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
};
