import { prefixedId, sortQuery, ZCreatedWindowQuery, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';
import { ZPausedUser } from './users.ts';

/** Users a clock holds at most, and how far one advance may move it (Stripe's test clocks have the same two bounds). */
export const MAX_CLOCK_USERS = 100;
export const MAX_CLOCK_ADVANCE_YEARS = 2;

/**
 * A time to advance to that stays in the future for a while and fits any clock started in 2026 or 2027 (an advance
 * moves at most two years); the example it replaces, a month after a past date, could only ever be refused.
 */
const ADVANCE_EXAMPLE = '2028-01-01T00:00:00.000Z';

export const ZClockId = prefixedId('clk', 'clk_7Rt2mQ9xK4vB1nL6');

export const ZPausedUsersOnClock = z
  .array(ZPausedUser)
  .max(MAX_CLOCK_USERS)
  .meta({
    description:
      'The users on the clock whose monitoring is paused at `frozenTime`, and why: after an advance past the expiry ' +
      'of a consent you attested, `consent_expired` (docs/partner/testing-with-clocks.md).',
  });

export const CLOCK_STATUSES = ['ready', 'advancing'] as const;
export const ZClockStatus = z.enum(CLOCK_STATUSES, `must be one of ${CLOCK_STATUSES.join(', ')}`).meta({
  id: 'SandboxClockStatus',
  description:
    '`ready`: its users live at `frozenTime`. `advancing`: the worker is running the monitoring of every period the ' +
    'users skipped; `sandbox.clock.ready` is sent when it is `ready` again. While `advancing`, another advance and any ' +
    'write to one of its users answer `409 CLOCK_ADVANCING`.',
});

export const ZSandboxClock = z
  .object({
    clockId: ZClockId,
    name: z.string().nullable().meta({ example: 'Twelve months of Jane' }),
    frozenTime: ZTimestamp.meta({
      description: '"Now" for every user on the clock: history windows, score and alert dates, the monitoring schedule.',
    }),
    status: ZClockStatus,
    userCount: z.number().int().min(0).max(MAX_CLOCK_USERS).meta({ example: 1 }),
    pausedUsers: ZPausedUsersOnClock,
    createdAt: ZTimestamp,
  })
  .meta({
    id: 'SandboxClock',
    description:
      'A sandbox test clock (like Stripe’s): a frozen time its users live at, moved forward only by an advance. ' +
      'Clocks unused for 30 days are deleted with their users.',
  });
export type TSandboxClock = z.infer<typeof ZSandboxClock>;

export const ZCreateClockInput = z
  .strictObject({
    name: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    // No example: a start must lie between now and two years on, so any written date becomes a `400` with time.
    frozenTime: z.iso
      .datetime({ offset: false })
      .optional()
      .meta({
        description: `Where the clock starts: now by default, never in the past, at most ${MAX_CLOCK_ADVANCE_YEARS} years from now.`,
      }),
  })
  .meta({ id: 'CreateSandboxClockInput' });
export type TCreateClockInput = z.infer<typeof ZCreateClockInput>;

export const ZAttachClockUsersInput = z
  .strictObject({
    userIds: z
      .array(ZUserId)
      .min(1, 'must list at least one user')
      .max(MAX_CLOCK_USERS, `must list at most ${MAX_CLOCK_USERS} users`)
      .refine((ids) => new Set(ids).size === ids.length, 'must not list a user twice')
      .meta({
        description:
          'Existing users of yours on no clock. All are attached or none: an unknown id is `404`, a user on another ' +
          'clock or past the clock’s 100 users is `400` naming the item.',
        uniqueItems: true,
      }),
  })
  .meta({ id: 'AttachSandboxClockUsersInput' });
export type TAttachClockUsersInput = z.infer<typeof ZAttachClockUsersInput>;

export const ZAdvanceClockInput = z
  .strictObject({
    frozenTime: ZTimestamp.meta({
      description: `The clock's new time: after its current \`frozenTime\`, at most ${MAX_CLOCK_ADVANCE_YEARS} years later.`,
      example: ADVANCE_EXAMPLE,
    }),
  })
  .meta({ id: 'AdvanceSandboxClockInput' });
export type TAdvanceClockInput = z.infer<typeof ZAdvanceClockInput>;

export const CLOCK_SORT_FIELDS = ['createdAt'] as const;
export const ZListClocksQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  sort: sortQuery(CLOCK_SORT_FIELDS, '-createdAt'),
});
export type TListClocksQuery = z.infer<typeof ZListClocksQuery>;

export const ZClockIdParams = z.strictObject({ clockId: ZClockId });
