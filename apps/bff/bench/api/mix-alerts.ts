/**
 * The unread alerts the mixed load marks read: both servers hold the same ids, and wrk picks one at random for each
 * mark, so (nearly) every mark changes a row, as a consumer reading a new alert does. Marking one alert read again
 * and again changed no row after the first time, which made the API's write cheaper than the baseline's UPDATE.
 * 100,000 of them: a run marks at most a few thousand, so a pick finds an alert already read a few per cent of the time.
 */
export const MIX_ALERT_POOL = 100_000;
export const MIX_ALERT_PREFIX = 'alt_mix';
const DIGITS = 8;

/** SQL for the id of alert `n` (1-based) of the pool, from a `generate_series` column. */
export const mixAlertIdSql = (column: string) => `'${MIX_ALERT_PREFIX}' || lpad(${column}::text, ${DIGITS}, '0')`;

/** Lua (wrk) for a random alert id of the pool. */
export const mixAlertIdLua = `${JSON.stringify(MIX_ALERT_PREFIX)} .. string.format("%0${DIGITS}d", math.random(1, ${MIX_ALERT_POOL}))`;
