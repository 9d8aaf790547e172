/** What the benches share: knobs from the environment, a throwaway database, a client and its token, CPU pinning. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db } from '../apps/bff/src/db/db.ts';
import { openPglite } from '../apps/bff/src/db/pglite.ts';
import { openPostgres } from '../apps/bff/src/db/postgres.ts';
import { systemClock } from '../apps/bff/src/lib/clock.ts';
import { createClient } from '../apps/bff/src/modules/clients/service.ts';

export const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
};

/** bench:api's pool of one user's unread alerts: the mixed load marks one at random, so nearly every mark changes a row. */
export const MIX_ALERTS = 100_000;
export const SECRET = 'sk_bench_secret_0123456789abcdefghijklmnop';
/** A throwaway database: its `close()` drops the schema on PostgreSQL. */
export type BenchDb = Db & { schema?: string };

/** PostgreSQL at `url` in a fresh schema (dropped by `close()`), or in-memory PGlite without a URL. */
export const openBenchDb = async (url = process.env.DATABASE_URL, max?: number): Promise<BenchDb> => {
  if (!url) return openPglite();
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema, ...(max ? { max } : {}) });
  return {
    ...db,
    schema,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

/** A client with a known secret, and a client-credentials token for it from the API at `apiUrl`. */
export const benchClient = async (db: Db, apiUrl?: string) => {
  const { client } = await createClient(db, systemClock, 'sandbox', {
    name: 'Bench bank',
    contactEmail: 'ops@bank.test',
    secret: SECRET,
  });
  if (!apiUrl) return { clientId: client.id, token: '' };
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET });
  const res = await fetch(`${apiUrl}/oauth/token`, { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return { clientId: client.id, token: ((await res.json()) as { access_token: string }).access_token };
};

/** An enrolment body; `externalUserId` must be new for the client. */
export const enrolment = (externalUserId: string) => ({
  externalUserId,
  email: 'bench@example.test',
  firstName: 'Jane',
  lastName: 'Doe',
  ssn: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL' as const, zipCode: '62701' },
});

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};
export const median = (values: number[]): number => percentile(values, 0.5);
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

// Read before this process pins itself, which narrows what availableParallelism reports.
export const CPUS = os.availableParallelism();
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** Pinning with taskset keeps a load generator off the measured process's CPU; BENCH_PIN=0 turns it off. */
export const canPin = process.env.BENCH_PIN !== '0' && CPUS >= 2 && hasTaskset;
export const pin = (pid: number | undefined, cpu: number) => {
  if (canPin && pid) execFileSync('taskset', ['-a', '-p', '-c', String(cpu % CPUS), String(pid)], { stdio: 'ignore' });
};
/** `taskset -c <cpu>` to put in front of a command when pinning, else nothing. */
export const pinned = (cpu: number): string[] => (canPin ? ['taskset', '-c', String(cpu % CPUS)] : []);
