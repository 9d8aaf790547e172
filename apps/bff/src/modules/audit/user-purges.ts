import type { Queryable } from '../../db/db.ts';
import { recordAudit } from './record.ts';
import { clientsOfUsers } from './subject-repo.ts';

type RecordContext = Parameters<typeof recordAudit>[0];

/** `user.purged` for each user the purge job erased, in the purge's transaction, each in its own client's trail. */
export const recordUserPurges = async (ctx: RecordContext, tx: Queryable, userIds: string[]): Promise<void> => {
  if (userIds.length === 0) return;
  for (const row of await clientsOfUsers(tx, userIds)) {
    await recordAudit(
      ctx,
      { type: 'user.purged', clientId: row.client_id, actor: { kind: 'job', id: 'purge' }, userId: row.id },
      tx,
    );
  }
};
