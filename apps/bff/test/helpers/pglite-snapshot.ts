import { readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';

/**
 * A fresh PGlite costs ~2 s of CPU to create (initdb in WebAssembly) and migrate; loading the files of one created and
 * migrated before costs a quarter of that. The suite's global setup writes such a snapshot once per run (from the
 * migrations as they are now), and `openMigratedPgliteSnapshot` opens a private in-memory copy of it per call.
 */
export const writeMigratedPgliteSnapshot = async (file: string): Promise<void> => {
  const pg = await PGlite.create();
  try {
    await migrate(await openPglite(undefined, pg));
    const tar = await pg.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
  } finally {
    await pg.close();
  }
};

const snapshots = new Map<string, Blob>();

/** A private, in-memory database whose files start as the snapshot's: every migration applied, no rows. */
export const openMigratedPgliteSnapshot = async (file: string): Promise<Db> => {
  let snapshot = snapshots.get(file);
  if (!snapshot) {
    snapshot = new Blob([readFileSync(file)]);
    snapshots.set(file, snapshot);
  }
  const pg = await PGlite.create({ loadDataDir: snapshot });
  const db = await openPglite(undefined, pg);
  return {
    ...db,
    close: async () => {
      await db.close();
      await pg.close();
    },
  };
};
