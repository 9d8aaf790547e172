import {
  instantInput,
  sortQuery,
  ZCreatedWindowQuery,
  ZDeliveryId,
  ZEventId,
  ZPageQuery,
  ZTimestamp,
  ZWebhookId,
} from '../common.ts';
import { z } from '../zod.ts';

export const EVENT_TYPES = [
  'user.enrolled',
  'user.verified',
  'user.deleted',
  'score.updated',
  'score.changed',
  'alert.created',
  'alert.email.sent',
  'alert.email.suppressed',
  'alert.email.failed',
  'offer.clicked',
  'offer.converted',
  'sandbox.clock.ready',
  'consent.withdrawn',
] as const;
export type TEventType = (typeof EVENT_TYPES)[number];
export const ZEventType = z
  .enum(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)
  .meta({ id: 'EventType', example: 'score.changed' });

export const WEBHOOK_STATUSES = ['active', 'disabled', 'failed'] as const;
export const ZWebhookStatus = z.enum(WEBHOOK_STATUSES, `must be one of ${WEBHOOK_STATUSES.join(', ')}`).meta({
  id: 'WebhookStatus',
  description:
    '`active` receives deliveries; `disabled` was switched off by you; `failed` after the 5th retry of a delivery ' +
    'failed (an e-mail is sent to your contact address). PATCH `status: active` re-activates it and resets the ' +
    'failure count.',
});

const MAX_URL_LENGTH = 2048;

/**
 * A receiver on the developer's own machine: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8 or [::1]. Only
 * these may be plain `http://`, and only in the sandbox (the server checks the environment); production is https-only.
 */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
};

export const HTTP_WEBHOOK_URL_PROBLEM =
  'must be an https:// URL (plain http:// is accepted only for a loopback receiver such as http://localhost:4242, in the sandbox)';

/**
 * What RFC 3986 lets a path hold unencoded (its `pchar`s and `/`), and a query or a fragment (those and `?`): the
 * unreserved characters, the sub-delimiters, `:`, `@`, and `%` when it starts a percent-encoded octet.
 */
const NOT_IN_RFC3986_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;
const NOT_IN_RFC3986_QUERY = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g;

const percentEncode = (char: string) =>
  char.length === 1 && char.charCodeAt(0) < 0x80
    ? `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
    : encodeURIComponent(char);

/**
 * The WHATWG `href` in RFC 3986 form, which `format: uri` (and many a receiver's framework) expects: WHATWG leaves
 * `[ ] | ^ \ { }` and a `%` that starts no octet as they are in a path, query or fragment; each is percent-encoded
 * here (a lone `%` as `%25`, what WHATWG meant by it). Scheme, host and port are already in RFC 3986 form.
 */
const rfc3986Href = (url: URL): string => {
  const path = url.pathname.replace(NOT_IN_RFC3986_PATH, percentEncode);
  const query = url.search && `?${url.search.slice(1).replace(NOT_IN_RFC3986_QUERY, percentEncode)}`;
  const fragment = url.hash && `#${url.hash.slice(1).replace(NOT_IN_RFC3986_QUERY, percentEncode)}`;
  return `${url.protocol}//${url.host}${path}${query}${fragment}`;
};

/**
 * Parses with the WHATWG URL parser (what delivery uses); the stored and returned value is its normalised `href` in
 * RFC 3986 form, which the WHATWG parser reads back unchanged.
 */
const webhookHref = (value: string): { href: string } | { problem: string } => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be a valid URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return { problem: HTTP_WEBHOOK_URL_PROBLEM };
  }
  if (url.username || url.password) return { problem: 'must not contain a user name or password' };
  const href = rfc3986Href(url);
  if (new URL(href).href !== href) return { problem: 'must be a URL that can be written in RFC 3986 form' };
  if (href.length > MAX_URL_LENGTH) return { problem: `must be at most ${MAX_URL_LENGTH} characters once normalised` };
  return { href };
};

export const ZWebhookUrl = z
  .string()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .check((ctx) => {
    const result = webhookHref(ctx.value);
    if ('problem' in result) ctx.issues.push({ code: 'custom', input: ctx.value, message: result.problem });
  })
  .transform((value) => (webhookHref(value) as { href: string }).href)
  .meta({
    description:
      'HTTPS, or plain `http://` to a loopback receiver (`localhost`, 127.0.0.0/8, `[::1]`) in the sandbox only; parsed as a WHATWG URL and stored as its normalised form in RFC 3986 form (`https://Host/fé` → `https://host/f%C3%A9`, `https://host/a]b|c` → `https://host/a%5Db%7Cc`), ' +
      'which is what responses return. Production refuses hosts that resolve to loopback, private, link-local or metadata addresses.',
    example: 'https://hooks.example-bank.com/credit',
    format: 'uri',
  });

export const ZWebhookEvents = z
  .array(ZEventType)
  .min(1, 'must list at least one event type')
  .refine((events) => new Set(events).size === events.length, 'must not list an event type twice')
  .meta({
    description: 'Event types this subscription receives, each once.',
    uniqueItems: true,
    example: ['score.changed', 'alert.created'],
  });

export const ZWebhookSecret = z
  .string()
  .min(16, 'must be at least 16 characters')
  .max(256, 'must be at most 256 characters')
  .meta({
    description:
      'A signing secret you choose (16–256 characters), used as its UTF-8 bytes. Write-only: never returned. Omit it ' +
      'to get a generated Standard Webhooks secret instead (answered once).',
    example: 'whsec_4f9b2c7e1a6d3f80',
  });

/** The base64 part of a generated secret: 32 random bytes. */
export const GENERATED_SECRET_BYTES = 32;

export const ZGeneratedWebhookSecret = z.string().meta({
  description:
    'The signing secret we generated: `whsec_` and the base64 of 32 random bytes, the form Standard Webhooks ' +
    'libraries take with their defaults (`new Webhook(secret)`). Answered only here, once: keep it with your other secrets.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3XrPIW4Cz9Y=',
});

export const RETRY_SCHEDULES = ['standard', 'fast'] as const;
/** The waits of the `fast` schedule, in milliseconds: an outage rehearsed in about a minute. */
export const FAST_RETRY_DELAYS_MS = [5_000, 10_000, 15_000, 20_000, 30_000] as const;
export const ZRetrySchedule = z.enum(RETRY_SCHEDULES, `must be one of ${RETRY_SCHEDULES.join(', ')}`).meta({
  id: 'WebhookRetrySchedule',
  description:
    'The waits between a failed attempt and its five retries: `standard` 1 min, 5 min, 30 min, 2 h, 24 h; `fast` ' +
    '5 s, 10 s, 15 s, 20 s, 30 s, so an outage (the `failed` status, the e-mail, the recovery) can be rehearsed in ' +
    'about a minute. `fast` is for the sandbox only: production answers it with `400` on `retrySchedule`.',
  example: 'standard',
});
export type TRetrySchedule = z.infer<typeof ZRetrySchedule>;

export const ZWebhookHealth = z
  .object({
    lastDeliveryAt: ZTimestamp.nullable().meta({
      description: 'The latest scheduled attempt (tests and resends you ask for are not counted); null before the first.',
    }),
    lastSuccessAt: ZTimestamp.nullable().meta({ description: 'The latest attempt your receiver answered 2xx.' }),
    lastFailureAt: ZTimestamp.nullable().meta({ description: 'The latest failed attempt.' }),
    lastFailureReason: z.string().nullable().meta({
      description: 'Why the latest failed attempt failed: the log’s `error` phrase (`connection refused`, `http 500`, …).',
      example: 'connection refused',
    }),
    consecutiveFailures: z.number().int().min(0).meta({
      description: 'Failed attempts since the latest success (or re-activation); 0 when the latest attempt succeeded.',
      example: 0,
    }),
    disabledAt: ZTimestamp.nullable().meta({
      description: 'When the subscription stopped receiving deliveries (`failed` or `disabled`); null while `active`.',
    }),
    disabledReason: z.string().nullable().meta({
      description:
        'Why: `failed after 6 attempts of delivery del_…: connection refused` (its last retry failed) or `disabled by you`; null while `active`.',
      example: 'failed after 6 attempts of delivery del_4Hj6kL8zX0cV2bN4: connection refused',
    }),
    failureNoticeSentAt: ZTimestamp.nullable().meta({
      description: 'When the latest e-mail saying the subscription turned `failed` went to your contact address.',
    }),
  })
  .meta({
    id: 'WebhookHealth',
    description:
      'How deliveries to this subscription are going, updated as attempts end (a success within a second of the one ' +
      'recorded may leave `lastDeliveryAt` and `lastSuccessAt` on it).',
  });
export type TWebhookHealth = z.infer<typeof ZWebhookHealth>;

export const ZWebhook = z
  .object({
    webhookId: ZWebhookId,
    url: z.url().meta({ example: 'https://hooks.example-bank.com/credit' }),
    events: z.array(ZEventType),
    status: ZWebhookStatus,
    retrySchedule: ZRetrySchedule,
    health: ZWebhookHealth,
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp.optional(),
  })
  .meta({ id: 'Webhook' });
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZCreatedWebhook = ZWebhook.extend({
  secret: ZGeneratedWebhookSecret.optional().meta({
    description:
      'Present only when you sent no `secret`: the signing secret we generated (`whsec_` + base64), answered this ' +
      'once. `new Webhook(secret)` from the `standardwebhooks` package verifies deliveries with its defaults.',
  }),
}).meta({ id: 'CreatedWebhook' });
export type TCreatedWebhook = z.infer<typeof ZCreatedWebhook>;

export const ZCreateWebhookInput = z
  .strictObject({
    url: ZWebhookUrl,
    events: ZWebhookEvents,
    secret: ZWebhookSecret.optional(),
    retrySchedule: ZRetrySchedule.optional().meta({ description: 'Default `standard`; `fast` in the sandbox only.' }),
  })
  .meta({ id: 'CreateWebhookInput' });
export type TCreateWebhookInput = z.infer<typeof ZCreateWebhookInput>;

export const ZRotateWebhookSecretInput = z
  .strictObject({
    secret: ZWebhookSecret.optional().meta({
      description: 'The new secret, if you choose it; omit it (or send no body) to get a generated one.',
    }),
  })
  .meta({ id: 'RotateWebhookSecretInput' });
export type TRotateWebhookSecretInput = z.infer<typeof ZRotateWebhookSecretInput>;

export const ZWebhookSecretRotation = z
  .object({
    webhookId: ZWebhookId,
    secret: ZGeneratedWebhookSecret.optional().meta({
      description: 'Present only when we generated the new secret: answered this once.',
    }),
    previousSecretExpiresAt: ZTimestamp.meta({
      description:
        'Until then every delivery is signed with both the new and the previous secret, so receivers switch when they ' +
        'like; afterwards with the new one only.',
    }),
  })
  .meta({ id: 'WebhookSecretRotation' });
export type TWebhookSecretRotation = z.infer<typeof ZWebhookSecretRotation>;

export const ZUpdateWebhookInput = z
  .strictObject({
    url: ZWebhookUrl.optional(),
    events: ZWebhookEvents.optional(),
    secret: ZWebhookSecret.optional().meta({
      description:
        'A new signing secret you choose (rotation); applies to the next delivery, the previous one signs beside it ' +
        'for 24 h. For a generated one, `POST /v1/webhooks/{webhookId}/rotate-secret`.',
    }),
    status: z
      .enum(['active', 'disabled'], 'must be active or disabled')
      .optional()
      .meta({ description: '`disabled` pauses deliveries; `active` resumes them (also re-activates a `failed` one).' }),
    retrySchedule: ZRetrySchedule.optional().meta({
      description: 'Applies from the next failed attempt; `fast` in the sandbox only.',
    }),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'must change at least one of url, events, secret, status, retrySchedule',
  })
  .meta({ id: 'UpdateWebhookInput' });
export type TUpdateWebhookInput = z.infer<typeof ZUpdateWebhookInput>;

export const ZTestWebhookInput = z.strictObject({ eventType: ZEventType }).meta({ id: 'TestWebhookInput' });
export type TTestWebhookInput = z.infer<typeof ZTestWebhookInput>;

export const DELIVERY_STATUSES = ['success', 'failed'] as const;
export const ZDeliveryStatus = z
  .enum(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`)
  .meta({ id: 'DeliveryStatus', description: '`success` when the subscriber answered 2xx within 30 s.' });

export const ZDeliveryLogEntry = z
  .object({
    deliveryId: ZDeliveryId.meta({
      description: 'One event sent to this subscription: its retries share the id and differ by `attempt`.',
      example: 'del_4Hj6kL8zX0cV2bN4',
    }),
    eventId: ZEventId,
    eventType: ZEventType,
    status: ZDeliveryStatus,
    statusCode: z.number().int().min(0).max(599).meta({
      description: 'HTTP status the subscriber answered; 0 when it did not answer (timeout, refused).',
      example: 200,
    }),
    responseTime: z.number().int().min(0).meta({ description: 'Milliseconds until the answer or the timeout.', example: 142 }),
    error: z
      .string()
      .optional()
      .meta({
        description:
          'Present on a failed attempt: why, as a short stable phrase — `connection refused`, `timeout after 30 s`, ' +
          '`tls: self-signed certificate`, `tls: certificate has expired`, `tls: certificate does not match the host`, ' +
          '`dns: host not found`, `address not allowed`, `connection reset`, `http 500`. The list is in the webhooks guide.',
        example: 'connection refused',
      }),
    deliveredAt: ZTimestamp,
    attempt: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({
        description:
          'Counts every attempt of this delivery: 1 for the first, 2–6 for its scheduled retries, and on from there for ' +
          'a retry you ask for or a recovery (never a second 1).',
        example: 1,
      }),
    nextAttemptAt: ZTimestamp.nullable().meta({
      description:
        'When the next attempt of this delivery is due, on the latest attempt of a delivery still waiting for a retry; ' +
        'null when none is due (it succeeded, it failed for good, a later attempt was made, or the subscription is not `active`).',
      example: '2026-01-15T10:35:00.000Z',
    }),
  })
  .meta({ id: 'DeliveryLogEntry' });
export type TDeliveryLogEntry = z.infer<typeof ZDeliveryLogEntry>;

export const WEBHOOK_SORT_FIELDS = ['createdAt'] as const;
export const ZListWebhooksQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  status: ZWebhookStatus.optional(),
  sort: sortQuery(WEBHOOK_SORT_FIELDS, '-createdAt'),
});
export type TListWebhooksQuery = z.infer<typeof ZListWebhooksQuery>;

export const ZListDeliveriesQuery = z.strictObject({
  ...ZPageQuery.shape,
  status: ZDeliveryStatus.optional(),
});
export type TListDeliveriesQuery = z.infer<typeof ZListDeliveriesQuery>;

export const ZWebhookIdParams = z.strictObject({ webhookId: ZWebhookId });

export const ZDeliveryParams = z.strictObject({ webhookId: ZWebhookId, deliveryId: ZDeliveryId });

/** How far back `recover` reaches: as long as deliveries and events are kept. */
export const RECOVER_MAX_DAYS = 30;

export const ZRecoverWebhookInput = z
  .strictObject({
    since: instantInput().meta({
      description: `Re-queue the deliveries of events whose \`createdAt\` (the envelope's) is at or after this instant (ISO 8601; at most ${RECOVER_MAX_DAYS} days back, not in the future).`,
      example: '2026-01-14T00:00:00Z',
    }),
    until: instantInput()
      .optional()
      .meta({
        description:
          'And whose `createdAt` is strictly before this instant. Without it the window has no end: events a sandbox ' +
          'test clock dated ahead of now (an advance dates its events in clock time) are queued too.',
        example: '2026-01-15T00:00:00Z',
      }),
  })
  .meta({ id: 'RecoverWebhookInput' });
export type TRecoverWebhookInput = z.infer<typeof ZRecoverWebhookInput>;

export const ZWebhookRecovery = z
  .object({
    webhookId: ZWebhookId,
    queued: z.number().int().min(0).meta({
      description:
        'Events queued, each once, of the types the subscription receives now: deliveries that had failed for good, and events never sent while the subscription was `failed` or `disabled`.',
      example: 3,
    }),
    since: ZTimestamp,
    until: ZTimestamp.optional().meta({
      description: 'The `until` asked for. Absent when none was: the window then has no end.',
    }),
    status: ZWebhookStatus,
  })
  .meta({ id: 'WebhookRecovery' });
export type TWebhookRecovery = z.infer<typeof ZWebhookRecovery>;
