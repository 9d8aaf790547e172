import type { WidgetLocale } from '@credit/contract/widget-protocol';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

export interface I18n {
  locale: WidgetLocale;
  /** BCP 47 tag used for Intl (`en-US`, `es-US`): amounts are dollars either way. */
  intlLocale: string;
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
  /** A date (`YYYY-MM-DD`) or timestamp; dates are shown as calendar days, never shifted by time zone. */
  formatDate(iso: string, options?: Intl.DateTimeFormatOptions): string;
  /** Date and time of day, in the device's time zone. */
  formatDateTime(iso: string, options?: Intl.DateTimeFormatOptions): string;
  /** US dollars. */
  formatCurrency(value: number, options?: Intl.NumberFormatOptions): string;
  /** A value already in percent: `formatPercent(19.99)` → "19.99%". */
  formatPercent(value: number, options?: Intl.NumberFormatOptions): string;
}

const INTL_LOCALES: Record<WidgetLocale, string> = { en: 'en-US', es: 'es-US' };
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export const createI18n = (locale: WidgetLocale): I18n => {
  const intlLocale = INTL_LOCALES[locale];
  return {
    locale,
    intlLocale,
    formatNumber: (value, options) => new Intl.NumberFormat(intlLocale, options).format(value),
    formatDate: (iso, options = { dateStyle: 'medium' }) => {
      // A bare date means that calendar day everywhere; parsing it as UTC midnight would show the day before in the Americas.
      const date = DATE_ONLY.test(iso) ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
      return new Intl.DateTimeFormat(intlLocale, DATE_ONLY.test(iso) ? { timeZone: 'UTC', ...options } : options).format(date);
    },
    formatDateTime: (iso, options = { dateStyle: 'medium', timeStyle: 'short' }) =>
      new Intl.DateTimeFormat(intlLocale, options).format(new Date(iso)),
    formatCurrency: (value, options) =>
      new Intl.NumberFormat(intlLocale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0, ...options }).format(
        value,
      ),
    formatPercent: (value, options) =>
      new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 2, ...options }).format(value / 100),
  };
};

const I18nContext = createContext<I18n>(createI18n('en'));

export function I18nProvider({ locale, children }: { locale: WidgetLocale; children: ReactNode }) {
  const value = useMemo(() => createI18n(locale), [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);

/** Picks a screen's strings for the current locale: `const t = useMessages(messages)`. */
export const useMessages = <M,>(messages: { en: M; es: M }): M => messages[useI18n().locale];

/** The device's language when the host names none. */
export const detectLocale = (): WidgetLocale =>
  typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('es') ? 'es' : 'en';
