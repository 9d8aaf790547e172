export { createI18n, detectLocale, type I18n, I18nProvider, useI18n, useMessages } from './I18nProvider.tsx';
