const DAY_MS = 86_400_000;

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** The same day `months` months earlier (day clamped to 28 so every month has it), as YYYY-MM-DD. */
export const monthsBefore = (asOf: Date, months: number): string => {
  const d = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() - months, Math.min(asOf.getUTCDate(), 28)));
  return isoDate(d);
};

export const daysBefore = (asOf: Date, days: number): string => isoDate(new Date(asOf.getTime() - days * DAY_MS));

/** Whole and fractional years between a YYYY-MM-DD date and `asOf`. */
export const yearsSince = (date: string, asOf: Date): number =>
  Math.max(0, (asOf.getTime() - Date.parse(`${date}T00:00:00Z`)) / (365.25 * DAY_MS));

export const round1 = (value: number): number => Math.round(value * 10) / 10;

/** Whole calendar months from a YYYY-MM-DD day to `asOf`. */
export const monthsSince = (date: string, asOf: Date): number => {
  const from = new Date(`${date}T00:00:00Z`);
  return (asOf.getUTCFullYear() - from.getUTCFullYear()) * 12 + asOf.getUTCMonth() - from.getUTCMonth();
};
