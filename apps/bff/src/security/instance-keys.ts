import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { sharedInstanceKey } from '../db/instance-keys.ts';
import { parseKeyList } from './keys.ts';

export interface InstanceKeys {
  tokenSigning: Buffer[];
  dataEncryption: Buffer[];
}

/**
 * Keys come from the environment. A sandbox instance without them generates each once and keeps it
 * in the database, so every instance on that database signs and decrypts alike, across restarts.
 */
export const loadInstanceKeys = async (db: Db, config: Config): Promise<InstanceKeys> => {
  const resolve = async (name: 'TOKEN_SIGNING_KEY' | 'DATA_ENCRYPTION_KEY') => {
    const configured = config[name];
    if (configured) return parseKeyList(configured, name);
    if (config.APP_ENV === 'production') throw new Error(`${name} is required in production`);
    return parseKeyList(await sharedInstanceKey(db, name, randomBytes(32).toString('base64')), name);
  };
  return { tokenSigning: await resolve('TOKEN_SIGNING_KEY'), dataEncryption: await resolve('DATA_ENCRYPTION_KEY') };
};
