const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const whole = new Intl.NumberFormat('en-US');
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

const dateTimeEs = new Intl.DateTimeFormat('es-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** An instant as staff read it, in UTC (the API's dates are UTC days): `Dec 2, 2026, 2:30 PM UTC`; `—` for none. */
export const formatInstant = (iso: string | null | undefined, locale: 'en' | 'es' = 'en'): string =>
  iso ? `${(locale === 'es' ? dateTimeEs : dateTime).format(new Date(iso))} UTC` : '—';
export const formatDay = (day: string): string => dateOnly.format(new Date(`${day}T00:00:00Z`));
export const formatCount = (n: number): string => whole.format(n);
export const formatUsd = (n: number): string => usd.format(n);

/** `J***` : a name's first letter only. */
export const maskName = (name: string): string => (name ? `${name.slice(0, 1)}***` : '');

/** `j***@example.com`: the first letter of the mailbox and the domain. */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
};

/** The UTC day of `date`, as the API takes it: `2026-12-02`. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

export const addDays = (day: string, days: number): string => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDay(date);
};

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
