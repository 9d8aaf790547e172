import { safePatternWithPrefix } from './strings.ts';
import { z } from './zod.ts';

/**
 * An id with a fixed prefix, e.g. `usr_…`. Only the prefix is a rule: an id with the right prefix that
 * matches nothing is a `404 NOT_FOUND` whatever its characters or length (Stripe's answer), so the message
 * never states a rule the value already meets. The pattern also carries the string policy (no control characters).
 */
export const prefixedId = (prefix: string, example: string) =>
  z
    .string()
    .regex(new RegExp(safePatternWithPrefix(`${prefix}_`)), `must start with ${prefix}_`)
    .meta({ example });

export const ZUserId = prefixedId('usr', 'usr_8fQ2kZ1mW4xL9pR3');
export const ZOfferId = prefixedId('off', 'off_cc7BlueCash01');
export const ZClickId = prefixedId('clk', 'clk_3nV8cQ2mZ7aB1xK4');
export const ZAlertId = prefixedId('alt', 'alt_9Tq1wE4rY6uI2oP8');
export const ZVerificationSessionId = prefixedId('ver', 'ver_5Gh7jK2lM9nB3vC1');
export const ZWebhookId = prefixedId('wh', 'wh_2Xc4vB6nM8qW1eR3');
export const ZEventId = prefixedId('evt', 'evt_7Yu9iO1pA3sD5fG7');
export const ZDeliveryId = prefixedId('del', 'del_4Hj6kL8zX0cV2bN4');
export const ZRequestId = z.string().meta({ example: 'req_6Mn8bV0cX2zL4kJ6' });

export const ZTimestamp = z.iso.datetime({ offset: false }).meta({
  description: 'ISO 8601 UTC timestamp',
  example: '2026-01-15T10:30:00.000Z',
});
export const ZDate = z.iso.date().meta({ description: 'Calendar date, YYYY-MM-DD', example: '2026-01-15' });

export const ZMeta = z
  .object({ requestId: ZRequestId, timestamp: ZTimestamp })
  .meta({ id: 'ResponseMeta', description: 'Present on every response body.' });
export type TMeta = z.infer<typeof ZMeta>;

export const ZPagination = z
  .object({
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` to get the next page; null on the last page.' }),
    total: z.number().int().min(0).meta({ description: 'Items matching the filters, across all pages.' }),
  })
  .meta({ id: 'Pagination' });
export type TPagination = z.infer<typeof ZPagination>;

/** `{ data, meta }`: how every successful single-resource response is wrapped. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data, meta: ZMeta });

/** `{ data: [...], pagination, meta }`: how every list response is wrapped. */
export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: ZPagination, meta: ZMeta });

/** Query parameters shared by every list: page size, cursor and creation window. */
export const ZPageQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(25)
    .meta({ description: 'Page size, 1–100.', example: 25 }),
  cursor: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .meta({ description: 'Opaque cursor from the previous page’s `pagination.nextCursor`.' }),
});

/**
 * Dates we accept in requests: what PostgreSQL and every client can hold, years 1900–9999. Anchored and
 * with the string policy, so the documented pattern is complete; the format check runs (and aborts) first.
 */
const YEAR_RANGE = new RegExp(safePatternWithPrefix(String.raw`(?:19|[2-9]\d)\d{2}-`));
const YEAR_RANGE_MESSAGE = 'must be a date in the years 1900–9999';

const FIRST_INSTANT = Date.UTC(1900, 0, 1);
const LAST_INSTANT = Date.UTC(10000, 0, 1) - 1;

/**
 * The instant an ISO 8601 date-time names, in UTC, or undefined when it names none: a day its month does not have
 * (`2026-02-30`), or an offset that takes it outside 1900–9999. The one reading of every timestamp a caller sends, so
 * the database only ever sees an instant it can hold. Not a schema refinement: path and query schemas stay pure
 * parts (their parses are remembered, http/input-parse.ts); the server applies it where it reads the instant.
 */
export const instantOf = (text: string): Date | undefined => {
  const at = new Date(text);
  const time = at.getTime();
  if (Number.isNaN(time) || time < FIRST_INSTANT || time > LAST_INSTANT) return undefined;
  // JavaScript rolls 2026-02-30 over to March 2nd: the calendar date written must be the one parsed, before the offset.
  const written = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!written) return undefined;
  const [, year, month, day] = written.map(Number) as [number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day ? at : undefined;
};

/** An instant a caller sends (ISO 8601, any offset), years 1900–9999. */
export const instantInput = () =>
  z.iso
    .datetime({ offset: true, abort: true, error: 'must be an ISO 8601 date-time such as 2026-01-15T10:30:00Z' })
    .regex(YEAR_RANGE, YEAR_RANGE_MESSAGE)
    .meta({ format: 'date-time' });

/** A calendar date a caller sends (YYYY-MM-DD), years 1900–9999. */
export const dateInput = (error = 'must be a real date in YYYY-MM-DD form') =>
  z.iso.date({ error, abort: true }).regex(YEAR_RANGE, YEAR_RANGE_MESSAGE).meta({ format: 'date' });

export const ZCreatedWindowQuery = z.object({
  createdAfter: instantInput()
    .optional()
    .meta({ description: 'Only items created at or after this instant (ISO 8601, years 1900–9999).' }),
  createdBefore: instantInput()
    .optional()
    .meta({ description: 'Only items created strictly before this instant (ISO 8601, years 1900–9999).' }),
});

/**
 * `sort=-createdAt,lastName`: comma-separated fields, `-` for descending.
 * Each list names the fields it can sort by.
 */
export const sortQuery = <F extends string>(fields: readonly [F, ...F[]], fallback: string) =>
  z
    .string()
    .max(200)
    .regex(
      new RegExp(`^-?(${fields.join('|')})(,-?(${fields.join('|')}))*$`),
      `must be a comma-separated list of ${fields.join(', ')}, each optionally prefixed with -`,
    )
    .default(fallback)
    .meta({ description: `Sort order. Fields: ${fields.join(', ')}; prefix \`-\` for descending.`, example: fallback });
