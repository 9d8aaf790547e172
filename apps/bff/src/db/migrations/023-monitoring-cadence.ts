/**
 * Each client's monitoring cadence: calendar months (the default) or weeks. Existing users keep their next due date and
 * join the calendar from the period after it (modules/monitoring/cadence.ts), so the change starts no burst of pulls.
 */
export const sql = `
alter table clients add column monitoring_cadence text not null default 'monthly'
  check (monitoring_cadence in ('monthly', 'weekly'));
`;
