/**
 * What the benchmark's own PostgreSQL sessions (picked out by `application_name`) are doing, sampled every few
 * milliseconds from pg_stat_activity: waiting on a row lock, on the NOTIFY queue's lock, on the WAL flush, or running.
 */
import pg from 'pg';

const describe = (state: string, type: string | null, event: string | null): string => {
  if (state === 'idle in transaction') return 'in a transaction, waiting for the app';
  if (type === 'Lock' && (event === 'transactionid' || event === 'tuple')) return 'row lock';
  if (type === 'Lock' && event === 'object') return 'NOTIFY lock (commit)';
  if (type === null) return 'running';
  return `${type}: ${event}`;
};

export const sampleWaits = async (connectionString: string, applicationName: string, everyMs = 20) => {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const seen = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ state: string; wait_event_type: string | null; wait_event: string | null }>(
        `select state, wait_event_type, wait_event from pg_stat_activity
         where application_name = $1 and state in ('active', 'idle in transaction') and pid <> pg_backend_pid()`,
        [applicationName],
      );
      samples += 1;
      for (const r of rows) {
        const what = describe(r.state, r.wait_event_type, r.wait_event);
        seen.set(what, (seen.get(what) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  /** Stops sampling; answers the mean number of busy sessions and the top states by share. */
  return async (top = 3): Promise<string> => {
    stopped = true;
    await loop;
    await client.end();
    const busy = [...seen.values()].reduce((a, b) => a + b, 0);
    if (busy === 0) return 'no busy session seen';
    const parts = [...seen]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, n]) => `${what} ${Math.round((100 * n) / busy)} %`);
    return `${(busy / Math.max(1, samples)).toFixed(1)} busy: ${parts.join(', ')}`;
  };
};

/** `url` with `application_name` set, so the sampler finds these sessions among the database's others. */
export const withApplicationName = (url: string, name: string): string => {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
};
