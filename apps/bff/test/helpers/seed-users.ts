import type { AppContext } from '../../src/context.ts';
import { sealIdentity } from '../../src/modules/users/service.ts';

export interface SeedOptions {
  clientId: string;
  count: number;
  /** When every seeded user's first refresh is due (their verification time). */
  dueAt: Date;
  /** The ssn's last four of user `i`: a sandbox story (1001…) or an ordinary file. */
  ssnOf?: (i: number) => string;
  /** Prefix of the partner's ids, so several seedings in one database do not collide. */
  prefix?: string;
}

const ROWS_PER_STATEMENT = 1_000;

/**
 * Seeded users hold current consent (migration 008) well past any cycle a bench or test runs: the gate is measured in
 * the claim, not tripped. (A consents row is not needed for the job; only the gate column is read.)
 */
const CONSENT_VALID_UNTIL = new Date('2999-01-01T00:00:00Z');

/** An ordinary sandbox file: any four digits but the magic values (0000, 9999 and the 1000–1099 stories). */
const ordinarySsn = (i: number) => String(2000 + ((i * 7919) % 7000)).padStart(4, '0');

/**
 * Verified, monitored sandbox users written straight into the database in bulk (1,000 rows a statement), as if each
 * had enrolled with consent and passed verification at `dueAt`: what the monitoring benchmark and the crash tests start from.
 * Identities are sealed exactly as enrolment seals them.
 */
export const seedMonitoredUsers = async (
  ctx: Pick<AppContext, 'db' | 'cipher' | 'ids'>,
  options: SeedOptions,
): Promise<number> => {
  const ssnOf = options.ssnOf ?? ordinarySsn;
  const prefix = options.prefix ?? 'seed';
  for (let start = 0; start < options.count; start += ROWS_PER_STATEMENT) {
    const columns: unknown[][] = Array.from({ length: 7 }, () => []);
    for (let i = start; i < Math.min(options.count, start + ROWS_PER_STATEMENT); i++) {
      const id = ctx.ids.id('usr');
      const sealed = sealIdentity(ctx as AppContext, id, {
        externalUserId: `${prefix}-${i}`,
        email: `${prefix}-${i}@example.test`,
        firstName: 'Bench',
        lastName: `Customer${i}`,
        ssn: ssnOf(i),
        dateOfBirth: `19${50 + (i % 45)}-0${1 + (i % 9)}-1${i % 9}`,
        address: {
          street: `${100 + (i % 900)} Maple St`,
          city: 'Columbus',
          state: 'OH',
          zipCode: `43${String(i % 1000).padStart(3, '0')}`,
        },
      });
      const values = [
        id,
        `${prefix}-${i}`,
        `${prefix}-${i}@example.test`,
        `Customer${i}`,
        sealed.ssnEnc,
        sealed.dateOfBirthEnc,
        sealed.addressEnc,
      ];
      for (const [column, value] of values.entries()) columns[column]?.push(value);
    }
    await ctx.db.query(
      `insert into users (id, client_id, external_user_id, email, first_name, last_name, status, ssn_enc, date_of_birth_enc,
         address_enc, created_at, verified_at, monitoring_anchor_at, monitoring_due_at, monitoring_next_attempt_at,
         consent_valid_until)
       select u.id, $8, u.ext, u.email, 'Bench', u.last_name, 'active', u.ssn, u.dob, u.address, $9, $9, $9, $9, $9, $10
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         as u(id, ext, email, last_name, ssn, dob, address)`,
      [...columns.slice(0, 7), options.clientId, options.dueAt, CONSENT_VALID_UNTIL],
    );
  }
  return options.count;
};
