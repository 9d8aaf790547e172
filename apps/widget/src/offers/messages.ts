import type { TOfferType } from '@credit/contract';

interface OffersMessages {
  heading: string;
  intro: string;
  /** Under the intro when some offers could save money: why those lead. */
  savingsFirst: string;
  loading: string;
  filterLabel: string;
  all: string;
  types: Record<TOfferType, string>;
  preQualified: string;
  apr: string;
  aprRange: (min: string, max: string, kind: 'variable' | 'fixed') => string;
  creditLimit: string;
  loanAmount: string;
  amountRange: (min: string, max: string) => string;
  notStated: string;
  annualFee: string;
  noAnnualFee: string;
  bonus: string;
  bonusValue: (amount: string, requirement: string) => string;
  endsOn: (date: string) => string;
  apply: string;
  applyFor: (name: string) => string;
  opensNewWindow: string;
  applying: string;
  clickFailed: string;
  invalidLink: string;
  continueToApplication: string;
  emptyAll: string;
  emptyType: Record<TOfferType, string>;
  showAll: string;
  /** The count line over the list: how many of the offers are on screen so far. */
  showing: (shown: number, total: number) => string;
  showMore: string;
  /** `account` names the account on the report ("Contoso Auto Finance auto loan"); null while unknown. */
  savings: (monthly: string, total: string, account: string | null) => string;
  /** `current` is the APR the account has now, when its lender reports one. */
  savingsApr: (offered: string, current: string | null) => string;
}

export const messages: { en: OffersMessages; es: OffersMessages } = {
  en: {
    heading: 'Offers for you',
    intro: 'Cards and loans matched to your credit. Pre-qualified offers are ones your score already meets the criteria for.',
    savingsFirst: 'Offers that could lower what you pay now come first.',
    loading: 'Loading your offers…',
    filterLabel: 'Offer type',
    all: 'All',
    types: { credit_card: 'Credit cards', loan: 'Loans', mortgage: 'Mortgages' },
    preQualified: 'Pre-qualified',
    apr: 'APR',
    aprRange: (min, max, kind) => `${min === max ? min : `${min}–${max}`} ${kind}`,
    creditLimit: 'Credit limit',
    loanAmount: 'Loan amount',
    amountRange: (min, max) => (min === max ? min : `${min}–${max}`),
    notStated: 'Not stated',
    annualFee: 'Annual fee',
    noAnnualFee: 'None',
    bonus: 'Sign-up bonus',
    bonusValue: (amount, requirement) => `${amount}: ${requirement}`,
    endsOn: (date) => `Offer ends ${date}`,
    apply: 'Apply',
    applyFor: (name) => ` for ${name}`,
    opensNewWindow: '(opens in a new window)',
    applying: 'Opening…',
    clickFailed: 'We could not open this offer. Please try again.',
    invalidLink: 'This offer cannot be opened here. Please contact your bank.',
    continueToApplication: 'Continue to the application',
    emptyAll: 'There are no offers for you right now. New offers appear as your credit changes.',
    emptyType: {
      credit_card: 'There are no credit card offers for you right now.',
      loan: 'There are no loan offers for you right now.',
      mortgage: 'There are no mortgage offers for you right now.',
    },
    showAll: 'Show all offers',
    showing: (shown, total) =>
      total === 1 ? '1 offer' : shown < total ? `Showing ${shown} of ${total} offers` : `Showing all ${total} offers`,
    showMore: 'Show more offers',
    savings: (monthly, total, account) =>
      `Save about ${monthly} a month (${total} in total) against ${account ? `your ${account}` : 'an account on your credit report'}.`,
    savingsApr: (offered, current) =>
      current ? `At ${offered} APR instead of the ${current} you pay now.` : `At ${offered} APR for your score.`,
  },
  es: {
    heading: 'Ofertas para usted',
    intro:
      'Tarjetas y préstamos según su crédito. Las ofertas precalificadas son aquellas cuyos requisitos su puntaje ya cumple.',
    savingsFirst: 'Primero aparecen las ofertas que podrían reducir lo que paga ahora.',
    loading: 'Cargando sus ofertas…',
    filterLabel: 'Tipo de oferta',
    all: 'Todas',
    types: { credit_card: 'Tarjetas de crédito', loan: 'Préstamos', mortgage: 'Hipotecas' },
    preQualified: 'Precalificado',
    apr: 'Tasa anual (APR)',
    aprRange: (min, max, kind) => `${min === max ? min : `${min}–${max}`} ${kind === 'variable' ? 'variable' : 'fija'}`,
    creditLimit: 'Límite de crédito',
    loanAmount: 'Monto del préstamo',
    amountRange: (min, max) => (min === max ? min : `${min}–${max}`),
    notStated: 'No indicado',
    annualFee: 'Cuota anual',
    noAnnualFee: 'Ninguna',
    bonus: 'Bono de bienvenida',
    bonusValue: (amount, requirement) => `${amount}: ${requirement}`,
    endsOn: (date) => `La oferta termina el ${date}`,
    apply: 'Solicitar',
    applyFor: (name) => ` ${name}`,
    opensNewWindow: '(se abre en una ventana nueva)',
    applying: 'Abriendo…',
    clickFailed: 'No pudimos abrir esta oferta. Inténtelo de nuevo.',
    invalidLink: 'Esta oferta no se puede abrir aquí. Comuníquese con su banco.',
    continueToApplication: 'Continuar con la solicitud',
    emptyAll: 'No hay ofertas para usted en este momento. Aparecerán nuevas ofertas a medida que cambie su crédito.',
    emptyType: {
      credit_card: 'No hay ofertas de tarjetas de crédito para usted en este momento.',
      loan: 'No hay ofertas de préstamos para usted en este momento.',
      mortgage: 'No hay ofertas de hipotecas para usted en este momento.',
    },
    showAll: 'Ver todas las ofertas',
    showing: (shown, total) =>
      total === 1 ? '1 oferta' : shown < total ? `Mostrando ${shown} de ${total} ofertas` : `Mostrando las ${total} ofertas`,
    showMore: 'Mostrar más ofertas',
    savings: (monthly, total, account) =>
      `Ahorre unos ${monthly} al mes (${total} en total) frente a ${account ? `su ${account}` : 'una cuenta de su informe de crédito'}.`,
    savingsApr: (offered, current) =>
      current
        ? `Con una tasa anual (APR) de ${offered} en lugar del ${current} que paga ahora.`
        : `Con una tasa anual (APR) de ${offered} según su puntaje.`,
  },
};
