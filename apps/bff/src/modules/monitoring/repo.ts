import type { Queryable } from '../../db/db.ts';
import type { UserRow } from '../users/service.ts';

export interface SealedSnapshot {
  sealed: string;
  asOf: Date;
}

export interface RefreshState {
  status: UserRow['status'];
  deleted: boolean;
  monitoring_period: number;
  /** The last pull's snapshot: what this pull is compared with (none before the first pull). */
  snapshot: SealedSnapshot | undefined;
  /** The newest point of the score history (null before the first pull seeded it). */
  latestScore: { score: number; scoreDate: string } | null;
  /**
   * The consent gate as it stands under the lock (migration 008; null: withdrawn, superseded or never given). A pull
   * commits only if consent is still current at its time: a withdrawal that lands between the claim and the commit
   * takes this lock too, so it is either seen here or made after the commit.
   */
  consentValidUntil: Date | null;
  /** The earliest unsettled trigger's instant, or null. */
  triggerDueAt: Date | null;
}

interface RefreshStateRow {
  id: string;
  status: UserRow['status'];
  deleted_at: Date | null;
  monitoring_period: number;
  snapshot_enc: string | null;
  snapshot_as_of: Date | null;
  latest_score: number | null;
  latest_score_date: string | null;
  consent_valid_until: Date | null;
  trigger_due_at: Date | null;
}

const REFRESH_STATE_SQL = `select u.id, u.status, u.deleted_at, u.monitoring_period, u.consent_valid_until, u.trigger_due_at,
       s.snapshot_enc, s.as_of as snapshot_as_of, l.score as latest_score, l.score_date::text as latest_score_date
     from users u
     left join credit_snapshots s on s.user_id = u.id
     left join lateral (select score, score_date from score_history h where h.user_id = u.id order by seq desc limit 1) l
       on true`;

const toRefreshState = (row: RefreshStateRow): RefreshState => ({
  status: row.status,
  deleted: row.deleted_at !== null,
  monitoring_period: row.monitoring_period,
  snapshot:
    row.snapshot_enc !== null && row.snapshot_as_of !== null
      ? { sealed: row.snapshot_enc, asOf: new Date(row.snapshot_as_of) }
      : undefined,
  latestScore:
    row.latest_score !== null && row.latest_score_date !== null
      ? { score: Number(row.latest_score), scoreDate: row.latest_score_date }
      : null,
  consentValidUntil: row.consent_valid_until === null ? null : new Date(row.consent_valid_until),
  triggerDueAt: row.trigger_due_at === null ? null : new Date(row.trigger_due_at),
});

/**
 * Locks the user for the rest of the transaction and reads, in the same round trip, everything a pull's commit decides
 * on: whether it may still commit (status, deletion, period, consent), the previous snapshot and the newest history
 * point. Every commit waits for its WAL flush: its outbox rows and NOTIFY become visible only once durable, so a
 * webhook never announces a commit that a crash could still erase.
 */
export const lockRefreshState = async (tx: Queryable, userId: string): Promise<RefreshState | undefined> => {
  const { rows } = await tx.query<RefreshStateRow>(`${REFRESH_STATE_SQL} where u.id = $1 for no key update of u`, [userId]);
  return rows[0] ? toRefreshState(rows[0]) : undefined;
};

/**
 * lockRefreshState for a group of users committed in one transaction: one round trip, the rows locked in id order so
 * two groups (or a group and a single commit) never wait on each other in a cycle.
 */
export const lockRefreshStates = async (tx: Queryable, userIds: string[]): Promise<Map<string, RefreshState>> => {
  const sorted = [...userIds].sort();
  // The sort runs below the lock, so the rows are locked in id order.
  const { rows } = await tx.query<RefreshStateRow>(
    `${REFRESH_STATE_SQL} where u.id = any($1::text[]) order by u.id for no key update of u`,
    [sorted],
  );
  return new Map(rows.map((row) => [row.id, toRefreshState(row)]));
};

/** The snapshot a pull leaves for the next comparison, written by the statement that finishes the pull. */
export interface SnapshotToSave {
  clientId: string;
  sealed: string;
  /** The whole file, sealed: the file on record that reads serve. */
  fileSealed: string;
  asOf: Date;
  takenAt: Date;
}

/**
 * Upserts the snapshot a pull leaves. A plain write, so it can join the StatementBatch that also moves the user's
 * schedule (monitoring/service.ts): both in one statement, one round trip.
 */
export const saveSnapshot = async (tx: Queryable, userId: string, snapshot: SnapshotToSave): Promise<void> => {
  await tx.query(
    `insert into credit_snapshots (user_id, client_id, snapshot_enc, as_of, taken_at, file_enc)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (user_id) do update
       set snapshot_enc = excluded.snapshot_enc, as_of = excluded.as_of, taken_at = excluded.taken_at,
         file_enc = excluded.file_enc`,
    [userId, snapshot.clientId, snapshot.sealed, snapshot.asOf, snapshot.takenAt, snapshot.fileSealed],
  );
};

/**
 * A group commit's alert keys (modules/monitoring/service.ts, commitGroup): its users' keys read in one statement at
 * the group's first claim, so each claim after it is a plain write the group holds. Keys are written only by the commit
 * unit under the user's row lock, which the group holds, so what was read stays true until the group commits.
 */
export class AlertKeyClaims {
  #keys: Promise<Map<string, Set<string>>> | undefined;

  constructor(private readonly userIds: readonly string[]) {}

  /** Whether the user's subject is new (and now claimed); undefined for a user not in the group. */
  async claim(tx: Queryable, userId: string, digests: string[]): Promise<boolean | undefined> {
    if (!this.userIds.includes(userId)) return undefined;
    this.#keys ??= tx
      .query<{ user_id: string; key: string }>('select user_id, key from monitoring_alert_keys where user_id = any($1::text[])', [
        this.userIds,
      ])
      .then(({ rows }) => {
        const keys = new Map<string, Set<string>>();
        for (const row of rows) keys.set(row.user_id, (keys.get(row.user_id) ?? new Set()).add(row.key));
        return keys;
      });
    const keys = await this.#keys;
    const held = keys.get(userId) ?? new Set<string>();
    if (digests.some((digest) => held.has(digest))) return false;
    keys.set(userId, held.add(digests[0] ?? ''));
    return true;
  }
}

/**
 * Records that an alert about a subject was raised; false when one already was (the same inquiry never alerts twice).
 * Subjects are stored as keyed digests (`digests[0]` is the current key's): they name lenders, ZIP codes and flags,
 * which stay sealed in the snapshot. The older keys' digests are checked too, so rotating the key never re-raises an
 * alert.
 * In a group commit (`tx.alertKeys`) the answer comes from the group's keys and the insert waits with its writes.
 */
export const claimAlertKey = async (tx: Queryable, userId: string, digests: string[], at: Date): Promise<boolean> => {
  const claimed = await (tx as Queryable & { alertKeys?: AlertKeyClaims }).alertKeys?.claim(tx, userId, digests);
  if (claimed !== undefined) {
    if (claimed) {
      await tx.query('insert into monitoring_alert_keys (user_id, key, created_at) values ($1, $2, $3) on conflict do nothing', [
        userId,
        digests[0],
        at,
      ]);
    }
    return claimed;
  }
  // `returning`: the answer is read, so the insert runs at once even in a group commit's held writes.
  const { rows } = await tx.query(
    `insert into monitoring_alert_keys (user_id, key, created_at)
     select $1, $2, $3
     where not exists (select 1 from monitoring_alert_keys where user_id = $1 and key = any($4::text[]))
     on conflict do nothing
     returning key`,
    [userId, digests[0], at, digests],
  );
  return rows.length === 1;
};
