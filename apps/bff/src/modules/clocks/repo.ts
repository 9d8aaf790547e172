import type { TListClocksQuery, TPagination } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { createdAtCursorValue, Filters, keysetPage } from '../../db/keyset.ts';

export interface ClockRow {
  id: string;
  client_id: string;
  name: string | null;
  frozen_time: Date;
  status: 'ready' | 'advancing';
  target_time: Date | null;
  created_at: Date;
  user_count: number;
}

const COLUMNS = `id, client_id, name, frozen_time, status, target_time, created_at,
  (select count(*)::int from users u where u.clock_id = sandbox_clocks.id and u.deleted_at is null) as user_count`;

export const insertClock = async (
  db: Queryable,
  clock: { id: string; clientId: string; name: string | null; frozenTime: Date; createdAt: Date },
): Promise<ClockRow> => {
  const { rows } = await db.query<ClockRow>(
    `insert into sandbox_clocks (id, client_id, name, frozen_time, status, created_at, last_used_at)
     values ($1, $2, $3, $4, 'ready', $5, $5) returning ${COLUMNS}`,
    [clock.id, clock.clientId, clock.name, clock.frozenTime, clock.createdAt],
  );
  return rows[0] as ClockRow;
};

/** The client's clock; `lock` holds it for the rest of the transaction (attach, advance and delete serialise on it). */
export const findClock = async (db: Queryable, clientId: string, id: string, lock = false): Promise<ClockRow | undefined> => {
  const { rows } = await db.query<ClockRow>(
    `select ${COLUMNS} from sandbox_clocks where id = $1 and client_id = $2${lock ? ' for update' : ''}`,
    [id, clientId],
  );
  return rows[0];
};

export const listClientClocks = (
  db: Queryable,
  clientId: string,
  query: TListClocksQuery,
  cursors: CursorCodec,
): Promise<{ items: ClockRow[]; pagination: TPagination }> => {
  const filters = new Filters().add((p) => `client_id = ${p}`, clientId);
  filters.createdWindow(query);
  return keysetPage<ClockRow>(db, {
    cursors,
    list: `sandbox_clocks:${clientId}`,
    table: 'sandbox_clocks',
    columns: COLUMNS,
    filters,
    sortColumns: { createdAt: { column: 'created_at', type: 'timestamp' } },
    query,
    cursorValue: createdAtCursorValue,
  });
};

/** The live users of the client among `userIds`, locked, with the clock each is on. */
export const lockCandidateUsers = async (
  tx: Queryable,
  clientId: string,
  userIds: string[],
): Promise<{ id: string; clock_id: string | null }[]> => {
  const { rows } = await tx.query<{ id: string; clock_id: string | null }>(
    `select id, clock_id from users where client_id = $1 and id = any($2::text[]) and deleted_at is null
     order by id for no key update`,
    [clientId, userIds],
  );
  return rows;
};

export const touchClock = async (tx: Queryable, clockId: string, at: Date): Promise<void> => {
  await tx.query('update sandbox_clocks set last_used_at = $2 where id = $1', [clockId, at]);
};

export const clockUserIds = async (db: Queryable, clockId: string): Promise<string[]> => {
  const { rows } = await db.query<{ id: string }>('select id from users where clock_id = $1 and deleted_at is null order by id', [
    clockId,
  ]);
  return rows.map((row) => row.id);
};

export const startAdvance = async (tx: Queryable, clockId: string, target: Date, at: Date): Promise<void> => {
  await tx.query(
    `update sandbox_clocks set status = 'advancing', target_time = $2, lease_until = null, last_used_at = $3 where id = $1`,
    [clockId, target, at],
  );
};

/** An advance a worker holds: where the clock was when the advance began, and where it goes. */
export interface ClaimedAdvance {
  id: string;
  client_id: string;
  frozen_time: Date;
  target_time: Date;
}

/**
 * Takes one advancing clock no worker holds (or whose worker's lease ran out) until `leaseUntil`. SKIP LOCKED: two
 * workers claiming at once take different clocks, never one clock twice.
 */
export const claimAdvance = async (db: Queryable, now: Date, leaseUntil: Date): Promise<ClaimedAdvance | undefined> => {
  const { rows } = await db.query<ClaimedAdvance>(
    `update sandbox_clocks set lease_until = $2
     where id = (
       select id from sandbox_clocks
       where status = 'advancing' and (lease_until is null or lease_until <= $1)
       order by lease_until nulls first
       limit 1
       for update skip locked)
     returning id, client_id, frozen_time, target_time`,
    [now, leaseUntil],
  );
  return rows[0];
};

/** Keeps the advance while it runs; false when it is no longer ours to run (deleted, finished by another worker). */
export const extendLease = async (db: Queryable, advance: ClaimedAdvance, leaseUntil: Date): Promise<boolean> => {
  const { rowCount } = await db.query(
    `update sandbox_clocks set lease_until = $3 where id = $1 and status = 'advancing' and target_time = $2`,
    [advance.id, advance.target_time, leaseUntil],
  );
  return rowCount === 1;
};

/** Moves the clock to its target and makes it ready; false when another worker already did. */
export const finishAdvance = async (tx: Queryable, advance: ClaimedAdvance, at: Date): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `update sandbox_clocks set frozen_time = target_time, status = 'ready', target_time = null, lease_until = null,
       last_used_at = $3
     where id = $1 and status = 'advancing' and target_time = $2`,
    [advance.id, advance.target_time, at],
  );
  return rowCount === 1;
};

/** Removes the clock, once its (deleted) users are detached from it (users/service.ts, detachClockUsers). */
export const deleteClockRow = async (tx: Queryable, clockId: string): Promise<void> => {
  await tx.query('delete from sandbox_clocks where id = $1', [clockId]);
};

/** Ready clocks unused since `cutoff`, oldest first. */
export const staleClocks = async (db: Queryable, cutoff: Date, limit: number): Promise<{ id: string; client_id: string }[]> => {
  const { rows } = await db.query<{ id: string; client_id: string }>(
    `select id, client_id from sandbox_clocks where last_used_at <= $1 and status = 'ready' order by last_used_at limit $2`,
    [cutoff, limit],
  );
  return rows;
};
