import { ALERT_EMAIL_MODES, ZEmail } from '@credit/contract';

export type AlertEmailMode = (typeof ALERT_EMAIL_MODES)[number];
export { ALERT_EMAIL_MODES };

/**
 * How a client's customers hear of new alerts by e-mail, under the bank's name (docs/partner/alert-emails.md). Null
 * fields are unset: the display name is then the client's name, the colour the default one, and no logo is shown.
 */
export interface AlertEmailSettings {
  enabled: boolean;
  displayName: string | null;
  logoUrl: string | null;
  brandColor: string | null;
  replyTo: string | null;
  /** The bank's page that shows the widget: where each e-mail sends the customer to read their alerts. */
  linkUrl: string | null;
  mode: AlertEmailMode;
}

export const DEFAULT_ALERT_EMAIL_SETTINGS: AlertEmailSettings = {
  enabled: false,
  displayName: null,
  logoUrl: null,
  brandColor: null,
  replyTo: null,
  linkUrl: null,
  mode: 'each',
};

const MAX_URL_LENGTH = 2048;
const MAX_DISPLAY_NAME_LENGTH = 100;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const httpsProblem = (value: string): string | undefined => {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not contain a user name or password';
  return undefined;
};

const FIELD_PROBLEMS: { [K in keyof AlertEmailSettings]: (value: NonNullable<AlertEmailSettings[K]>) => string | undefined } = {
  enabled: (value) => (typeof value === 'boolean' ? undefined : 'must be on or off'),
  displayName: (value) => {
    if (value.trim() !== value || value.length === 0) return 'must not be empty or start or end with spaces';
    if (value.length > MAX_DISPLAY_NAME_LENGTH) return `must be at most ${MAX_DISPLAY_NAME_LENGTH} characters`;
    return CONTROL_CHARACTERS.test(value) ? 'must not contain line breaks or control characters' : undefined;
  },
  logoUrl: httpsProblem,
  brandColor: (value) => (/^#[0-9a-fA-F]{6}$/.test(value) ? undefined : 'must be a colour written #rrggbb, such as #0b5cad'),
  replyTo: (value) => (ZEmail.safeParse(value).success ? undefined : 'must be an e-mail address such as help@bank.example'),
  linkUrl: httpsProblem,
  mode: (value) =>
    (ALERT_EMAIL_MODES as readonly string[]).includes(value) ? undefined : `must be one of ${ALERT_EMAIL_MODES.join(', ')}`,
};

/** The CLI's name of each setting, so an error names the flag the operator typed. */
export const ALERT_EMAIL_FLAGS: Record<keyof AlertEmailSettings, string> = {
  enabled: '--alert-emails',
  displayName: '--alert-email-name',
  logoUrl: '--alert-email-logo',
  brandColor: '--alert-email-color',
  replyTo: '--alert-email-reply-to',
  linkUrl: '--alert-email-link',
  mode: '--alert-email-mode',
};

/**
 * The problems of `changes` applied over `current`: each set value checked, and e-mails on only with the two settings
 * every e-mail needs, the link to the bank's page and the reply-to address (customers answer an alert to their bank).
 */
export const alertEmailSettingProblems = (current: AlertEmailSettings, changes: Partial<AlertEmailSettings>): string[] => {
  const problems: string[] = [];
  for (const key of Object.keys(changes) as (keyof AlertEmailSettings)[]) {
    const value = changes[key];
    if (value === undefined || value === null) continue;
    const check = FIELD_PROBLEMS[key] as (v: unknown) => string | undefined;
    const problem = check(value);
    if (problem) problems.push(`${ALERT_EMAIL_FLAGS[key]} ${problem}, not ${JSON.stringify(value)}`);
  }
  const next = { ...current, ...definedOnly(changes) };
  if (next.enabled) {
    const missing = (['linkUrl', 'replyTo'] as const).filter((key) => !next[key]).map((key) => ALERT_EMAIL_FLAGS[key]);
    if (missing.length) problems.push(`${ALERT_EMAIL_FLAGS.enabled} on needs ${missing.join(' and ')} (set them too)`);
  }
  return problems;
};

const definedOnly = (changes: Partial<AlertEmailSettings>): Partial<AlertEmailSettings> =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
