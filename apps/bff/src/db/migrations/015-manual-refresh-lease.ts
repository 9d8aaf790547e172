/**
 * Refresh now takes the user's slot of the day (`manual_refresh_at`) before it pulls, and gives it back if the pull
 * fails. A process that stopped mid-pull (a crash, a deploy's kill) gave nothing back, and the slot stayed taken for
 * 24 hours with nothing pulled. `manual_refresh_pending_until` is the taken slot's lease while its pull runs (cleared
 * when the pull's outcome is recorded): once it has passed, the pull is taken to have died and the slot is free again.
 */
export const sql = `
alter table users add column manual_refresh_pending_until timestamptz;
`;
