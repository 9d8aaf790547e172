import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { formatCount, formatDay, formatInstant, formatMonth, formatUsd } from './format.ts';

/** The console's languages, as the widget's: each screen's strings live in a `messages` object with one entry each. */
export const CONSOLE_LOCALES = ['en', 'es'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

/** Where the staff member's choice is kept, on this browser only: the server holds no preference. */
const STORED = 'console:locale';

/** The language chosen on this browser before, else the browser's own (Spanish when it says so), else English. */
export const detectLocale = (): ConsoleLocale => {
  try {
    const stored = window.localStorage.getItem(STORED);
    if (stored === 'en' || stored === 'es') return stored;
  } catch {
    // Storage refused (a private window's policy): the browser's language decides.
  }
  return navigator.language?.toLowerCase().startsWith('es') ? 'es' : 'en';
};

interface LocaleState {
  locale: ConsoleLocale;
  setLocale(locale: ConsoleLocale): void;
}

const LocaleContext = createContext<LocaleState>({ locale: 'en', setLocale: () => {} });

export const LocaleProvider = ({ children }: { children: ReactNode }) => {
  const [locale, setLocale] = useState<ConsoleLocale>(detectLocale);
  useEffect(() => {
    // Screen readers and the browser's hyphenation follow the page's language.
    document.documentElement.lang = locale;
    try {
      window.localStorage.setItem(STORED, locale);
    } catch {
      // Not kept: the choice lasts this page's life.
    }
  }, [locale]);
  const value = useMemo(() => ({ locale, setLocale }), [locale]);
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
};

export const useLocale = (): LocaleState => useContext(LocaleContext);

/** Picks a screen's strings for the current language: `const t = useMessages(messages)`. */
export const useMessages = <M,>(messages: Record<ConsoleLocale, M>): M => messages[useLocale().locale];

/** The formats of the current language: dates, counts and dollars as a staff member reading it writes them. */
export const useFormat = () => {
  const { locale } = useLocale();
  return useMemo(
    () => ({
      locale,
      instant: (iso: string | null | undefined) => formatInstant(iso, locale),
      day: (day: string) => formatDay(day, locale),
      month: (day: string) => formatMonth(day, locale),
      count: (n: number) => formatCount(n, locale),
      usd: (n: number) => formatUsd(n, locale),
    }),
    [locale],
  );
};
export type Formats = ReturnType<typeof useFormat>;
