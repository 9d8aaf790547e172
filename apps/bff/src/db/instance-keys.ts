import type { Queryable } from './db.ts';

/**
 * The key kept under `name` in `instance_keys`, keeping `generated` first when there is none: the first instance to ask
 * stores its key and every instance answers that one.
 */
export const sharedInstanceKey = async (db: Queryable, name: string, generated: string): Promise<string> => {
  await db.query('insert into instance_keys (name, value) values ($1, $2) on conflict (name) do nothing', [name, generated]);
  const { rows } = await db.query<{ value: string }>('select value from instance_keys where name = $1', [name]);
  return rows[0]?.value ?? '';
};
