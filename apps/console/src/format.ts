/** The console's languages, as Intl names them: amounts are dollars and days are UTC in either (as the widget's). */
export type FormatLocale = 'en' | 'es';
const INTL_LOCALES: Record<FormatLocale, string> = { en: 'en-US', es: 'es-US' };

const formatsOf = (locale: FormatLocale) => {
  const tag = INTL_LOCALES[locale];
  return {
    dateTime: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    dateOnly: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }),
    month: new Intl.DateTimeFormat(tag, { year: 'numeric', month: 'short', timeZone: 'UTC' }),
    whole: new Intl.NumberFormat(tag),
    usd: new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }),
  };
};
const FORMATS: Record<FormatLocale, ReturnType<typeof formatsOf>> = { en: formatsOf('en'), es: formatsOf('es') };

/** An instant as staff read it, in UTC (the API's dates are UTC days): `Dec 2, 2026, 2:30 PM UTC`; `—` for none. */
export const formatInstant = (iso: string | null | undefined, locale: FormatLocale): string =>
  iso ? `${FORMATS[locale].dateTime.format(new Date(iso))} UTC` : '—';
/** A UTC day (`2026-12-02`): `Dec 2, 2026`, `2 dic 2026`. */
export const formatDay = (day: string, locale: FormatLocale): string =>
  FORMATS[locale].dateOnly.format(new Date(`${day}T00:00:00Z`));
/** The month a UTC day is in: `Dec 2026`, `dic 2026`. */
export const formatMonth = (day: string, locale: FormatLocale): string =>
  FORMATS[locale].month.format(new Date(`${day}T00:00:00Z`));
export const formatCount = (n: number, locale: FormatLocale): string => FORMATS[locale].whole.format(n);
export const formatUsd = (n: number, locale: FormatLocale): string => FORMATS[locale].usd.format(n);

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
