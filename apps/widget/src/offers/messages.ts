import type { TOfferType, TRefinanceAccountKind } from '@credit/contract';

/** A length of time as a reason states it: whole years when the rule asks in years, else months. */
export interface Duration {
  count: number;
  unit: 'years' | 'months';
}

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
  notPreQualified: string;
  apr: string;
  aprRange: (min: string, max: string, kind: 'variable' | 'fixed') => string;
  /** The APR of the customer's own rate band. */
  yourApr: string;
  yourAprValue: (apr: string, kind: 'variable' | 'fixed') => string;
  creditLimit: string;
  loanAmount: string;
  yourCreditLimit: string;
  yourLoanAmount: string;
  amountRange: (min: string, max: string) => string;
  notStated: string;
  introApr: string;
  introAprValue: (apr: string, months: number) => string;
  annualFee: string;
  noAnnualFee: string;
  originationFee: string;
  originationFeeValue: (percent: string) => string;
  balanceTransferFee: string;
  balanceTransferFeeValue: (percent: string) => string;
  term: string;
  duration: (length: Duration) => string;
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

  /** Names the list of an offer's requirements. */
  reasonsLabel: string;
  /** Read before each requirement, for those who do not see the mark beside it. */
  met: string;
  notMet: string;
  scoreAtLeast: (score: number, min: number) => string;
  scoreAtMost: (score: number, max: number) => string;
  scoreBetween: (score: number, min: number, max: number) => string;
  utilization: (actual: string, max: string) => string;
  utilizationNoCard: (max: string) => string;
  fileAge: (actual: Duration, required: Duration) => string;
  fileAgeNone: (required: Duration) => string;
  noLatePayments: (months: number) => string;
  latePayment: (monthsAgo: number, months: number) => string;
  latePaymentOnFile: (months: number) => string;
  stateMet: (state: string) => string;
  stateNotMet: (states: string, actual: string | null) => string;
  refinanceMet: (count: number) => string;
  /** `kinds` joined as alternatives ("credit card or personal loan"); `minBalance` in dollars, when the offer asks one. */
  refinanceNotMet: (kinds: string, minBalance: string | null) => string;
  refinanceKinds: Record<TRefinanceAccountKind, string>;
  tierMet: (min: number, max: number, apr: string) => string;
  tierNotMet: (score: number) => string;

  /** What moving the account to the offer changes, in whole dollars; each names only a change the figures show. */
  lowerPaymentAndCost: (monthly: string, total: string) => string;
  lowerCostHigherPayment: (total: string, monthly: string) => string;
  lowerCostSamePayment: (total: string) => string;
  /** `longerTerm`: the offer runs longer than what is left of the account, which is why it costs more overall. */
  lowerPaymentHigherCost: (monthly: string, total: string, longerTerm: boolean) => string;
  lowerPaymentSameCost: (monthly: string) => string;
  /** `account` names the account on the report ("Contoso Auto Finance auto loan"), null while unknown. */
  comparedWith: (account: string | null, apr: string | null) => string;
  feesIncluded: (fees: string) => string;
}

const enDuration = ({ count, unit }: Duration) =>
  `${count} ${unit === 'years' ? (count === 1 ? 'year' : 'years') : count === 1 ? 'month' : 'months'}`;
const esDuration = ({ count, unit }: Duration) =>
  `${count} ${unit === 'years' ? (count === 1 ? 'año' : 'años') : count === 1 ? 'mes' : 'meses'}`;

export const messages: { en: OffersMessages; es: OffersMessages } = {
  en: {
    heading: 'Offers for you',
    intro:
      'Cards and loans from your bank, checked against your credit report. Pre-qualified means you meet every requirement ' +
      'below; it is not an approval, and checking does not affect your score.',
    savingsFirst: 'Offers you pre-qualify for come first, the ones that could save you the most at the top.',
    loading: 'Loading your offers…',
    filterLabel: 'Offer type',
    all: 'All',
    types: { credit_card: 'Credit cards', loan: 'Loans', mortgage: 'Mortgages' },
    preQualified: 'Pre-qualified',
    notPreQualified: 'Not pre-qualified',
    apr: 'APR',
    aprRange: (min, max, kind) => `${min === max ? min : `${min}–${max}`} ${kind}`,
    yourApr: 'Your APR',
    yourAprValue: (apr, kind) => `${apr} ${kind}`,
    creditLimit: 'Credit limit',
    loanAmount: 'Loan amount',
    yourCreditLimit: 'Your credit limit',
    yourLoanAmount: 'Your loan amount',
    amountRange: (min, max) => (min === max ? min : `${min}–${max}`),
    notStated: 'Not stated',
    introApr: 'Intro APR',
    introAprValue: (apr, months) => `${apr} intro APR for ${months} ${months === 1 ? 'month' : 'months'}`,
    annualFee: 'Annual fee',
    noAnnualFee: 'None',
    originationFee: 'Origination fee',
    originationFeeValue: (percent) => `${percent} of the amount`,
    balanceTransferFee: 'Balance transfer fee',
    balanceTransferFeeValue: (percent) => `${percent} of each transfer`,
    term: 'Term',
    duration: enDuration,
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

    reasonsLabel: 'What this offer asks for',
    met: 'Met:',
    notMet: 'Not met:',
    scoreAtLeast: (score, min) => `Your score is ${score}, at least ${min} needed`,
    scoreAtMost: (score, max) => `Your score is ${score}, at most ${max} allowed`,
    scoreBetween: (score, min, max) => `Your score is ${score}, between ${min} and ${max} needed`,
    utilization: (actual, max) => `You use ${actual} of your card limits, at most ${max} allowed`,
    utilizationNoCard: (max) => `You have no open credit card; card use up to ${max} is allowed`,
    fileAge: (actual, required) => `Your oldest account is ${enDuration(actual)} old, at least ${enDuration(required)} needed`,
    fileAgeNone: (required) => `No account on your report yet, at least ${enDuration(required)} of history needed`,
    noLatePayments: (months) => `No late payments in the last ${months} months`,
    latePayment: (monthsAgo, months) =>
      `${monthsAgo === 0 ? 'Your latest payment was late' : `A payment was late ${enDuration({ count: monthsAgo, unit: 'months' })} ago`}, none in the last ${months} months allowed`,
    latePaymentOnFile: (months) => `A late payment is on your report, none in the last ${months} months allowed`,
    stateMet: (state) => `Offered in your state (${state})`,
    stateNotMet: (states, actual) => `Offered only in ${states}${actual ? `; your address is in ${actual}` : ''}`,
    refinanceMet: (count) =>
      count === 1
        ? 'You have an account this offer could refinance at a lower rate'
        : `You have ${count} accounts this offer could refinance at a lower rate`,
    refinanceNotMet: (kinds, minBalance) =>
      `Needs an open ${kinds}${minBalance ? ` with a balance of at least ${minBalance}` : ''} that this offer could refinance at a lower rate; none is on your report`,
    refinanceKinds: {
      credit_card: 'credit card',
      auto_loan: 'auto loan',
      student_loan: 'student loan',
      mortgage: 'mortgage',
      personal_loan: 'personal loan',
    },
    tierMet: (min, max, apr) => `Your score is in the ${min}–${max} band, which gets ${apr} APR`,
    tierNotMet: (score) => `This offer has no rate for a score of ${score}`,

    lowerPaymentAndCost: (monthly, total) => `Lower your payment by ${monthly} a month and pay ${total} less overall`,
    lowerCostHigherPayment: (total, monthly) => `Pay ${total} less overall; your payment rises by ${monthly} a month`,
    lowerCostSamePayment: (total) => `Pay ${total} less overall; your payment stays about the same`,
    lowerPaymentHigherCost: (monthly, total, longerTerm) =>
      `Lower your payment by ${monthly} a month; you pay ${total} more overall${longerTerm ? ' over the longer term' : ''}`,
    lowerPaymentSameCost: (monthly) => `Lower your payment by ${monthly} a month; you pay about the same overall`,
    comparedWith: (account, apr) =>
      account ? `compared with your ${account}${apr ? ` at ${apr}` : ''}` : 'compared with an account on your credit report',
    feesIncluded: (fees) => `Fees of ${fees} are included.`,
  },
  es: {
    heading: 'Ofertas para usted',
    intro:
      'Tarjetas y préstamos de su banco, comparados con su informe de crédito. Precalificado significa que cumple todos los ' +
      'requisitos indicados; no es una aprobación, y esta consulta no afecta su puntaje.',
    savingsFirst: 'Primero aparecen las ofertas para las que está precalificado, y arriba las que podrían ahorrarle más.',
    loading: 'Cargando sus ofertas…',
    filterLabel: 'Tipo de oferta',
    all: 'Todas',
    types: { credit_card: 'Tarjetas de crédito', loan: 'Préstamos', mortgage: 'Hipotecas' },
    preQualified: 'Precalificado',
    notPreQualified: 'No precalificado',
    apr: 'Tasa anual (APR)',
    aprRange: (min, max, kind) => `${min === max ? min : `${min}–${max}`} ${kind === 'variable' ? 'variable' : 'fija'}`,
    yourApr: 'Su tasa anual (APR)',
    yourAprValue: (apr, kind) => `${apr} ${kind === 'variable' ? 'variable' : 'fija'}`,
    creditLimit: 'Límite de crédito',
    loanAmount: 'Monto del préstamo',
    yourCreditLimit: 'Su límite de crédito',
    yourLoanAmount: 'Monto de su préstamo',
    amountRange: (min, max) => (min === max ? min : `${min}–${max}`),
    notStated: 'No indicado',
    introApr: 'Tasa introductoria',
    introAprValue: (apr, months) => `${apr} de tasa introductoria durante ${months} ${months === 1 ? 'mes' : 'meses'}`,
    annualFee: 'Cuota anual',
    noAnnualFee: 'Ninguna',
    originationFee: 'Comisión de apertura',
    originationFeeValue: (percent) => `${percent} del monto`,
    balanceTransferFee: 'Comisión por transferencia de saldo',
    balanceTransferFeeValue: (percent) => `${percent} de cada transferencia`,
    term: 'Plazo',
    duration: esDuration,
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

    reasonsLabel: 'Lo que pide esta oferta',
    met: 'Cumplido:',
    notMet: 'No cumplido:',
    scoreAtLeast: (score, min) => `Su puntaje es ${score}; se pide al menos ${min}`,
    scoreAtMost: (score, max) => `Su puntaje es ${score}; se permite como máximo ${max}`,
    scoreBetween: (score, min, max) => `Su puntaje es ${score}; se pide entre ${min} y ${max}`,
    utilization: (actual, max) => `Usa el ${actual} de los límites de sus tarjetas; se permite como máximo el ${max}`,
    utilizationNoCard: (max) => `No tiene tarjetas de crédito abiertas; se permite un uso de hasta el ${max}`,
    fileAge: (actual, required) => `Su cuenta más antigua tiene ${esDuration(actual)}; se piden al menos ${esDuration(required)}`,
    fileAgeNone: (required) => `Aún no hay cuentas en su informe; se piden al menos ${esDuration(required)} de historial`,
    noLatePayments: (months) => `Ningún pago atrasado en los últimos ${months} meses`,
    latePayment: (monthsAgo, months) =>
      `${monthsAgo === 0 ? 'Su pago más reciente se atrasó' : `Un pago se atrasó hace ${esDuration({ count: monthsAgo, unit: 'months' })}`}; no se permite ninguno en los últimos ${months} meses`,
    latePaymentOnFile: (months) => `Hay un pago atrasado en su informe; no se permite ninguno en los últimos ${months} meses`,
    stateMet: (state) => `Se ofrece en su estado (${state})`,
    stateNotMet: (states, actual) => `Solo se ofrece en ${states}${actual ? `; su dirección está en ${actual}` : ''}`,
    refinanceMet: (count) =>
      count === 1
        ? 'Tiene una cuenta que esta oferta podría refinanciar a una tasa menor'
        : `Tiene ${count} cuentas que esta oferta podría refinanciar a una tasa menor`,
    refinanceNotMet: (kinds, minBalance) =>
      `Se necesita una cuenta abierta (${kinds})${minBalance ? ` con un saldo de al menos ${minBalance}` : ''} que esta oferta pueda refinanciar a una tasa menor; no hay ninguna en su informe`,
    refinanceKinds: {
      credit_card: 'tarjeta de crédito',
      auto_loan: 'préstamo de auto',
      student_loan: 'préstamo estudiantil',
      mortgage: 'hipoteca',
      personal_loan: 'préstamo personal',
    },
    tierMet: (min, max, apr) => `Su puntaje está en la banda ${min}–${max}, con una tasa anual (APR) de ${apr}`,
    tierNotMet: (score) => `Esta oferta no tiene tasa para un puntaje de ${score}`,

    lowerPaymentAndCost: (monthly, total) => `Reduzca su pago en ${monthly} al mes y pague ${total} menos en total`,
    lowerCostHigherPayment: (total, monthly) => `Pague ${total} menos en total; su pago sube ${monthly} al mes`,
    lowerCostSamePayment: (total) => `Pague ${total} menos en total; su pago queda casi igual`,
    lowerPaymentHigherCost: (monthly, total, longerTerm) =>
      `Reduzca su pago en ${monthly} al mes; paga ${total} más en total${longerTerm ? ' por el plazo más largo' : ''}`,
    lowerPaymentSameCost: (monthly) => `Reduzca su pago en ${monthly} al mes; paga casi lo mismo en total`,
    comparedWith: (account, apr) =>
      account ? `frente a su ${account}${apr ? ` al ${apr}` : ''}` : 'frente a una cuenta de su informe de crédito',
    feesIncluded: (fees) => `Incluye ${fees} en comisiones.`,
  },
};
