import { parseArgs } from 'node:util';
import {
  CONSOLE_ROLES,
  type ConsoleRole,
  SCOPES,
  type Scope,
  WIDGET_DISCLOSURES,
  type WidgetDisclosure,
  ZConsoleLinkInput,
} from '@credit/contract';
import { loadConfig } from '../config.ts';
import { MONITORING_CADENCES, type MonitoringCadence } from '../core/principal.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { systemClock } from '../lib/clock.ts';
import type { ClientRecord } from '../modules/clients/repo.ts';
import { findClient, listClients } from '../modules/clients/repo.ts';
import {
  ALERT_EMAIL_MODES,
  type AlertEmailMode,
  type AlertEmailSettings,
  type ClientAlertEmailSettings,
  changeClient,
  clientAlertEmailSettings,
  createClient,
  listAlertEmailSettings,
  rotateClientSecret,
} from '../modules/clients/service.ts';
import { createConsoleLink } from '../modules/console/service.ts';
import { DataCipher } from '../security/encryption.ts';
import { loadInstanceKeys } from '../security/instance-keys.ts';
import { TokenHasher } from '../security/token-hasher.ts';

const USAGE = `Manage API clients (partners).

  pnpm clients create --name "First Bank" --email ops@firstbank.example [--scopes read,write,...]
                      [--embed-origins https://bank.example,...] [--ip-allowlist 203.0.113.0/24,...]
                      [--widget-disclosure none|band|exact] [--monitoring-cadence monthly|weekly]
                      [alert e-mail settings, below]
  pnpm clients list
  pnpm clients show <clientId>                 one client's settings
  pnpm clients rotate-secret <clientId> [--overlap SECONDS]
                                               new secret; without --overlap every token and console session of
                                               the old one ends now; with it, the old secret works until then too
  pnpm clients update <clientId> [--name ..] [--email ..] [--scopes ..] [--embed-origins ..]
                      [--ip-allowlist ..|none] [--rate-limit-auth N|default] [--rate-limit-batch N|default]
                      [--rate-limit-user-ops N|default] [--widget-disclosure none|band|exact]
                      [--monitoring-cadence monthly|weekly] [alert e-mail settings, below]
  pnpm clients console <clientId> [--role viewer|editor] [--staff-id ..] [--email ..]
                                               a one-time console link (ten minutes) for a staff member

Alert e-mails to the client's customers, under the bank's name (docs/partner/alert-emails.md):
  --alert-emails on|off                 off by default; on needs --alert-email-link and --alert-email-reply-to
  --alert-email-link https://…          the bank's page that shows the widget, where each e-mail sends the customer
  --alert-email-reply-to help@bank…     where customers' replies go
  --alert-email-name "First Bank"       the sender's display name (default: the client's name; none: back to it)
  --alert-email-logo https://…/logo.png the logo at the top of the e-mail (none: no logo)
  --alert-email-color '#0b5cad'         the brand colour of the header line and the button (none: the default)
  --alert-email-mode each|daily_digest  an e-mail per alert (default), or one a day per customer with the count

Uses DATABASE_URL, or the embedded database in DATA_DIR (stop the server first: it holds that database).
Scopes: ${SCOPES.join(', ')}.
Widget disclosure: what the partner's page may learn about the score through widget events: ${WIDGET_DISCLOSURES.join(', ')}
(default none; see docs/partner/disclosure.md). Console roles: ${CONSOLE_ROLES.join(', ')} (default viewer; the link
signs in as --staff-id, default "operator", with --email, default the client's contact address; docs/partner/console.md). Monitoring cadence: customers' files are refreshed each calendar month
on the day of their first pull (default) or each week (docs/operator/monitoring.md). Secrets are printed once and stored only as hashes.`;

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value === 'none'
      ? []
      : value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);

const disclosure = (value: string | undefined): WidgetDisclosure | undefined => {
  if (value === undefined) return undefined;
  if (!(WIDGET_DISCLOSURES as readonly string[]).includes(value)) {
    throw new Error(`--widget-disclosure is one of ${WIDGET_DISCLOSURES.join(', ')}, not ${value}`);
  }
  return value as WidgetDisclosure;
};

const cadence = (value: string | undefined): MonitoringCadence | undefined => {
  if (value === undefined) return undefined;
  if (!(MONITORING_CADENCES as readonly string[]).includes(value)) {
    throw new Error(`--monitoring-cadence is one of ${MONITORING_CADENCES.join(', ')}, not ${value}`);
  }
  return value as MonitoringCadence;
};

const consoleRole = (value: string | undefined): ConsoleRole => {
  if (value === undefined) return 'viewer';
  if (!(CONSOLE_ROLES as readonly string[]).includes(value))
    throw new Error(`--role is one of ${CONSOLE_ROLES.join(', ')}, not ${value}`);
  return value as ConsoleRole;
};

const limit = (value: string | undefined) => {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Not a positive whole number: ${value}`);
  return n;
};

const onOff = (value: string | undefined): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new Error(`--alert-emails is on or off, not ${value}`);
  return value === 'on';
};

/** A setting that `none` clears. */
const clearable = (value: string | undefined): string | null | undefined => (value === 'none' ? null : value);

const alertEmailMode = (value: string | undefined): AlertEmailMode | undefined => {
  if (value === undefined) return undefined;
  if (!(ALERT_EMAIL_MODES as readonly string[]).includes(value)) {
    throw new Error(`--alert-email-mode is one of ${ALERT_EMAIL_MODES.join(', ')}, not ${value}`);
  }
  return value as AlertEmailMode;
};

/** The alert e-mail flags given, or undefined when none is. */
const alertEmailChanges = (values: Record<string, string | boolean | undefined>): Partial<AlertEmailSettings> | undefined => {
  const text = (flag: string) => values[flag] as string | undefined;
  const changes: Partial<AlertEmailSettings> = {
    enabled: onOff(text('alert-emails')),
    displayName: clearable(text('alert-email-name')),
    logoUrl: clearable(text('alert-email-logo')),
    brandColor: clearable(text('alert-email-color')),
    replyTo: clearable(text('alert-email-reply-to')),
    linkUrl: clearable(text('alert-email-link')),
    mode: alertEmailMode(text('alert-email-mode')),
  };
  return Object.values(changes).some((value) => value !== undefined) ? changes : undefined;
};

const describeAlertEmails = (s: ClientAlertEmailSettings | undefined) =>
  s && {
    enabled: s.enabled,
    mode: s.mode,
    displayName: s.displayName ?? s.clientName,
    replyTo: s.replyTo,
    linkUrl: s.linkUrl,
    logoUrl: s.logoUrl,
    brandColor: s.brandColor,
  };

/** What operators see: never the secret hash. */
const describe = (c: ClientRecord, alertEmails?: ClientAlertEmailSettings) => ({
  clientId: c.id,
  name: c.name,
  environment: c.environment,
  scopes: c.scopes,
  contactEmail: c.contactEmail,
  embedOrigins: c.embedOrigins,
  ipAllowlist: c.ipAllowlist,
  rateLimits: c.rateLimits,
  widgetDisclosure: c.widgetDisclosure,
  monitoringCadence: c.monitoringCadence,
  alertEmails: describeAlertEmails(alertEmails),
  createdAt: c.createdAt.toISOString(),
});

const run = async (argv: string[]) => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      scopes: { type: 'string' },
      'embed-origins': { type: 'string' },
      'ip-allowlist': { type: 'string' },
      'rate-limit-auth': { type: 'string' },
      'rate-limit-batch': { type: 'string' },
      'rate-limit-user-ops': { type: 'string' },
      'widget-disclosure': { type: 'string' },
      'monitoring-cadence': { type: 'string' },
      'alert-emails': { type: 'string' },
      'alert-email-name': { type: 'string' },
      'alert-email-logo': { type: 'string' },
      'alert-email-color': { type: 'string' },
      'alert-email-reply-to': { type: 'string' },
      'alert-email-link': { type: 'string' },
      'alert-email-mode': { type: 'string' },
      role: { type: 'string' },
      'staff-id': { type: 'string' },
      overlap: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, clientId] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    const described = async (client: ClientRecord) => describe(client, await clientAlertEmailSettings(db, client.id));
    if (command === 'create') {
      if (!values.name || !values.email) throw new Error('create needs --name and --email');
      const { client, secret } = await createClient(db, systemClock, config.APP_ENV, {
        name: values.name,
        contactEmail: values.email,
        scopes: list(values.scopes) as Scope[] | undefined,
        embedOrigins: list(values['embed-origins']),
        ipAllowlist: list(values['ip-allowlist']),
        widgetDisclosure: disclosure(values['widget-disclosure']),
        monitoringCadence: cadence(values['monitoring-cadence']),
        alertEmails: alertEmailChanges(values),
      });
      print({
        ...(await described(client)),
        clientSecret: secret,
        note: `The secret is shown only now. Consumers read the name in the consent text and the widget; change it with: pnpm clients update ${client.id} --name "…"`,
      });
    } else if (command === 'list') {
      const settings = await listAlertEmailSettings(db);
      print((await listClients(db)).map((client) => describe(client, settings.get(client.id))));
    } else if (command === 'show') {
      if (!clientId) throw new Error('show needs a client id');
      const client = await findClient(db, clientId);
      if (!client) throw new Error(`No client ${clientId}`);
      print(await described(client));
    } else if (command === 'rotate-secret') {
      if (!clientId) throw new Error('rotate-secret needs a client id');
      const overlapSeconds = values.overlap === undefined ? 0 : Number(values.overlap);
      const rotation = await rotateClientSecret(db, systemClock, clientId, { overlapSeconds });
      print({
        clientId,
        clientSecret: rotation.secret,
        previousSecretExpiresAt: rotation.previousSecretExpiresAt.toISOString(),
        revokedTokens: rotation.revokedTokens,
        note: 'The secret is shown only now.',
      });
    } else if (command === 'update') {
      if (!clientId) throw new Error('update needs a client id');
      const client = await changeClient(db, clientId, {
        name: values.name,
        contactEmail: values.email,
        scopes: list(values.scopes) as Scope[] | undefined,
        embedOrigins: list(values['embed-origins']),
        ipAllowlist: list(values['ip-allowlist']),
        rateLimits: {
          auth: limit(values['rate-limit-auth']),
          batch: limit(values['rate-limit-batch']),
          userOps: limit(values['rate-limit-user-ops']),
        },
        widgetDisclosure: disclosure(values['widget-disclosure']),
        monitoringCadence: cadence(values['monitoring-cadence']),
        alertEmails: alertEmailChanges(values),
      });
      print(await described(client));
    } else if (command === 'console') {
      if (!clientId) throw new Error('console needs a client id');
      const client = await findClient(db, clientId);
      if (!client) throw new Error(`No client ${clientId}`);
      const input = ZConsoleLinkInput.safeParse({
        staff: { id: values['staff-id'] ?? 'operator', email: values.email ?? client.contactEmail },
        role: consoleRole(values.role),
      });
      if (!input.success) throw new Error(input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const keys = await loadInstanceKeys(db, config);
      const link = await createConsoleLink(
        {
          db,
          clock: systemClock,
          config,
          tokens: new TokenHasher(keys.tokenSigning),
          cipher: new DataCipher(keys.dataEncryption),
        },
        client.id,
        input.data,
        { kind: 'operator', id: 'clients-cli' },
      );
      print({
        clientId: client.id,
        staff: input.data.staff,
        role: input.data.role,
        ...link,
        note: 'Opens once, within ten minutes; give it only to that person. The base URL is PUBLIC_URL (or HOST and PORT).',
      });
    } else {
      throw new Error(`Unknown command "${command}". Run with --help.`);
    }
  } finally {
    await db.close();
  }
};

run(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
