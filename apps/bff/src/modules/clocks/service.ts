import {
  MAX_CLOCK_ADVANCE_YEARS,
  MAX_CLOCK_USERS,
  type TAdvanceClockInput,
  type TAttachClockUsersInput,
  type TCreateClockInput,
  type TListClocksQuery,
  type TSandboxClock,
} from '@credit/contract';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { realNow } from '../../lib/clock.ts';
import { attachUsersToClock, deleteUserRows, detachClockUsers, pausedUsersOnClock, writeUser } from '../users/service.ts';
import {
  type ClockRow,
  clockUserIds,
  deleteClockRow,
  findClock,
  insertClock,
  listClientClocks,
  lockCandidateUsers,
  staleClocks,
  startAdvance,
  touchClock,
} from './repo.ts';

export { runClockAdvancesUntilIdle, startClockAdvances } from './advance.ts';

/** A frozenTime sent as "now" arrives a little in the past; this much is taken as now. */
const CLOCK_SKEW_MS = 60_000;
const UNUSED_CLOCK_DAYS = 30;

const toClock = async (ctx: AppContext, row: ClockRow): Promise<TSandboxClock> => ({
  clockId: row.id,
  name: row.name,
  frozenTime: new Date(row.frozen_time).toISOString(),
  status: row.status,
  userCount: row.user_count,
  pausedUsers: row.user_count === 0 ? [] : await pausedUsersOnClock(ctx.db, row.id, realNow(ctx.clock)),
  createdAt: new Date(row.created_at).toISOString(),
});

const yearsAfter = (at: Date, years: number) => {
  const later = new Date(at.getTime());
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};

const clockNotFound = () => notFound('Clock');
const advancingError = () =>
  new ApiError('CLOCK_ADVANCING', 'The clock is advancing; wait for sandbox.clock.ready (or status ready), then retry.');

export const createClock = async (ctx: AppContext, caller: Caller, input: TCreateClockInput): Promise<TSandboxClock> => {
  const now = realNow(ctx.clock);
  const frozenTime = input.frozenTime ? new Date(input.frozenTime) : now;
  if (frozenTime.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    throw validationError([{ field: 'frozenTime', message: 'must not be in the past' }]);
  }
  if (frozenTime.getTime() > yearsAfter(now, MAX_CLOCK_ADVANCE_YEARS).getTime()) {
    throw validationError([{ field: 'frozenTime', message: `must be at most ${MAX_CLOCK_ADVANCE_YEARS} years from now` }]);
  }
  const row = await insertClock(ctx.db, {
    id: ctx.ids.id('clk'),
    clientId: caller.clientId,
    name: input.name ?? null,
    frozenTime,
    createdAt: now,
  });
  return toClock(ctx, row);
};

export const listClocks = async (ctx: AppContext, caller: Caller, query: TListClocksQuery) => {
  const page = await listClientClocks(ctx.db, caller.clientId, query, cursorsOf(ctx));
  return { items: await Promise.all(page.items.map((row) => toClock(ctx, row))), pagination: page.pagination };
};

export const getClock = async (ctx: AppContext, caller: Caller, clockId: string): Promise<TSandboxClock> => {
  const row = await findClock(ctx.db, caller.clientId, clockId);
  if (!row) throw clockNotFound();
  return toClock(ctx, row);
};

/**
 * Attaches users of the caller's on no clock: all of them or none. The clock row is locked first, so concurrent
 * attaches to one clock count its users one after the other and never pass 100 together.
 */
export const attachClockUsers = async (
  ctx: AppContext,
  caller: Caller,
  clockId: string,
  input: TAttachClockUsersInput,
): Promise<TSandboxClock> => {
  const now = realNow(ctx.clock);
  await writeUser(ctx, async (tx, touches) => {
    const clock = await findClock(tx, caller.clientId, clockId, true);
    if (!clock) throw clockNotFound();
    if (clock.status === 'advancing') throw advancingError();
    const found = new Map((await lockCandidateUsers(tx, caller.clientId, input.userIds)).map((u) => [u.id, u.clock_id]));
    const missing = input.userIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw notFound(`User ${input.userIds[missing]} (userIds.${missing})`);
    const problems: { field: string; message: string }[] = [];
    const joining: string[] = [];
    input.userIds.forEach((id, index) => {
      const current = found.get(id);
      if (current === clockId) return;
      if (current) problems.push({ field: `userIds.${index}`, message: `user ${id} is on another clock (${current})` });
      else if (clock.user_count + joining.length >= MAX_CLOCK_USERS) {
        problems.push({ field: `userIds.${index}`, message: `the clock already holds ${MAX_CLOCK_USERS} users` });
      } else joining.push(id);
    });
    if (problems.length > 0) throw validationError(problems);
    await attachUsersToClock(tx, clockId, joining);
    await touchClock(tx, clockId, now);
    touches(...joining.map(userTag));
  });
  return getClock(ctx, caller, clockId);
};

/**
 * Starts an advance: the clock becomes `advancing` with its target, and a worker runs the periods (advance.ts). Its
 * users' cached rows are dropped, so their reads see the clock advancing and their writes are refused until it is ready.
 */
export const advanceClock = async (
  ctx: AppContext,
  caller: Caller,
  clockId: string,
  input: TAdvanceClockInput,
): Promise<TSandboxClock> => {
  const now = realNow(ctx.clock);
  const target = new Date(input.frozenTime);
  await writeUser(ctx, async (tx, touches) => {
    const clock = await findClock(tx, caller.clientId, clockId, true);
    if (!clock) throw clockNotFound();
    if (clock.status === 'advancing') throw advancingError();
    const from = new Date(clock.frozen_time);
    if (target.getTime() <= from.getTime()) {
      throw validationError([{ field: 'frozenTime', message: `must be after the clock's frozenTime (${from.toISOString()})` }]);
    }
    if (target.getTime() > yearsAfter(from, MAX_CLOCK_ADVANCE_YEARS).getTime()) {
      throw validationError([
        { field: 'frozenTime', message: `must be at most ${MAX_CLOCK_ADVANCE_YEARS} years after the clock's frozenTime` },
      ]);
    }
    await startAdvance(tx, clockId, target, now);
    touches(...(await clockUserIds(tx, clockId)).map(userTag));
  });
  return getClock(ctx, caller, clockId);
};

/** Deletes a clock (not while it advances) and its users, as DELETE of each user would, in one transaction. */
const deleteClockIn = async (ctx: AppContext, clientId: string, clockId: string, at: Date): Promise<boolean> =>
  writeUser(ctx, async (tx: Queryable, touches) => {
    const clock = await findClock(tx, clientId, clockId, true);
    if (!clock) return false;
    if (clock.status === 'advancing') throw advancingError();
    await deleteUserRows(tx, ctx, clientId, await clockUserIds(tx, clockId), at, touches);
    await detachClockUsers(tx, clockId);
    await deleteClockRow(tx, clockId);
    return true;
  });

export const deleteClock = async (ctx: AppContext, caller: Caller, clockId: string): Promise<void> => {
  if (!(await deleteClockIn(ctx, caller.clientId, clockId, realNow(ctx.clock)))) throw clockNotFound();
};

/** Housekeeping: clocks unused for 30 days are deleted with their users, a few per sweep. Answers how many. */
export const pruneUnusedClocks = async (ctx: AppContext, limit = 50): Promise<number> => {
  const now = realNow(ctx.clock);
  const stale = await staleClocks(ctx.db, new Date(now.getTime() - UNUSED_CLOCK_DAYS * 86_400_000), limit);
  let pruned = 0;
  for (const clock of stale) {
    try {
      if (await deleteClockIn(ctx, clock.client_id, clock.id, now)) pruned += 1;
    } catch (error) {
      // Advanced since it was listed: used again, so kept.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return pruned;
};
