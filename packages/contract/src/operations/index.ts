import type { Operation } from '../operation.ts';
import * as alerts from './alerts.ts';
import * as audit from './audit.ts';
import * as auth from './auth.ts';
import * as consent from './consent.ts';
import * as consoleLinks from './console.ts';
import * as credentials from './credentials.ts';
import * as credit from './credit.ts';
import * as events from './events.ts';
import * as offers from './offers.ts';
import * as sandbox from './sandbox.ts';
import * as sandboxClocks from './sandbox-clocks.ts';
import * as users from './users.ts';
import * as verification from './verification.ts';
import * as webhooks from './webhooks.ts';
import * as widget from './widget.ts';

export * from './alerts.ts';
export * from './audit.ts';
export * from './auth.ts';
export * from './consent.ts';
export * from './console.ts';
export * from './credentials.ts';
export * from './credit.ts';
export * from './events.ts';
export * from './offers.ts';
export * from './sandbox.ts';
export * from './sandbox-clocks.ts';
export * from './users.ts';
export * from './verification.ts';
export * from './webhooks.ts';
export * from './widget.ts';

/** Every operation of the API, in the order the reference lists them. */
export const ALL_OPERATIONS: Operation[] = [
  ...Object.values(auth),
  ...Object.values(users),
  ...Object.values(consent),
  ...Object.values(credit),
  ...Object.values(offers),
  ...Object.values(alerts),
  ...Object.values(verification),
  ...Object.values(webhooks),
  ...Object.values(events),
  ...Object.values(sandbox),
  ...Object.values(sandboxClocks),
  ...Object.values(widget),
  ...Object.values(audit),
  ...Object.values(consoleLinks),
  ...Object.values(credentials),
];
