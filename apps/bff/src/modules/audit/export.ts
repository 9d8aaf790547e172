import type { Queryable } from '../../db/db.ts';
import { windowSlice } from './chain-repo.ts';
import { toAuditEvent } from './present.ts';

const PAGE = 1000;

/**
 * Writes a client's entries within [from, to) as JSON lines, in chain order, each as the API shows it plus the client
 * id; with their hashes a reader can check every link inside the range. Answers the lines written.
 */
export const exportTrail = async (
  db: Queryable,
  clientId: string,
  window: { from?: Date; to?: Date },
  writeLine: (line: string) => void | Promise<void>,
): Promise<number> => {
  let afterSeq = 0;
  let written = 0;
  for (;;) {
    const rows = await windowSlice(db, clientId, afterSeq, window, PAGE);
    for (const row of rows) {
      await writeLine(JSON.stringify({ clientId, ...toAuditEvent(row) }));
      afterSeq = Number(row.seq);
      written += 1;
    }
    if (rows.length < PAGE) return written;
  }
};
