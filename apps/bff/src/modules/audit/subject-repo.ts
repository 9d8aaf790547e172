import type { Queryable } from '../../db/db.ts';

/** The client a user belongs to, for the trail an entry about that user goes in. */
export const clientOfUser = async (db: Queryable, userId: string): Promise<string | undefined> => {
  const { rows } = await db.query<{ client_id: string }>('select client_id from users where id = $1', [userId]);
  return rows[0]?.client_id;
};

/** The clients of several users, ordered by client then user, so entries are appended trail by trail. */
export const clientsOfUsers = async (db: Queryable, userIds: string[]): Promise<{ id: string; client_id: string }[]> => {
  const { rows } = await db.query<{ id: string; client_id: string }>(
    'select id, client_id from users where id = any($1::text[]) order by client_id, id',
    [userIds],
  );
  return rows;
};
