import type { Queryable } from '../../db/db.ts';
import { recordAudit } from './record.ts';

type RecordContext = Parameters<typeof recordAudit>[0];

/** `user.purged` for each user the purge job erased, in the purge's transaction, each in its own client's trail. */
export const recordUserPurges = async (ctx: RecordContext, tx: Queryable, userIds: string[]): Promise<void> => {
  if (userIds.length === 0) return;
  const { rows } = await tx.query<{ id: string; client_id: string }>(
    'select id, client_id from users where id = any($1::text[]) order by client_id, id',
    [userIds],
  );
  for (const row of rows) {
    await recordAudit(
      ctx,
      { type: 'user.purged', clientId: row.client_id, actor: { kind: 'job', id: 'purge' }, userId: row.id },
      tx,
    );
  }
};
