import type { TSimulationActionType } from '@credit/contract';
import type { DraftSlot, LoanType } from './actions.ts';

type FactorChange = 'better' | 'worse' | 'same';

interface SimulatorMessages {
  heading: string;
  intro: string;
  loading: string;
  actionLegend: (position: number) => string;
  actionType: string;
  actionTypes: Record<TSimulationActionType, string>;
  /** What each action means, under the picker. */
  actionHints: Record<TSimulationActionType, string>;
  account: string;
  /** An account in the picker, its lender first so a narrow field still shows it: "Northwind Bank · Credit card · balance $1,840". */
  accountOption: (creditor: string, type: string, figure: string) => string;
  balanceFigure: (balance: string) => string;
  limitFigure: (limit: string) => string;
  loanType: string;
  loanTypes: Record<LoanType, string>;
  amountLabels: Partial<Record<TSimulationActionType, string>>;
  upToBalance: (balance: string) => string;
  currentLimit: (limit: string) => string;
  monthsHint: (max: string) => string;
  slider: string;
  remove: string;
  addAction: string;
  run: string;
  running: string;
  runFailed: string;
  /** A validation problem the API names on no single field (the actions as a whole), in its own English words. */
  planProblem: (apiMessage: string) => string;
  problemCount: (count: number) => string;
  problems: {
    chooseAccount: string;
    enterAmount: string;
    tooLow: string;
    tooHigh: (max: string) => string;
    moreThanBalance: (balance: string) => string;
    notAboveLimit: (limit: string) => string;
    months: (max: string) => string;
    /** The API's own words, which are English. */
    api: (slot: DraftSlot, apiMessage: string) => string;
  };
  resultHeading: string;
  stale: string;
  dialLabel: (score: string, rating: string, min: string, max: string) => string;
  /** "+18 points", "−25 points", "No change". */
  change: (change: number, points: string) => string;
  now: (score: string, rating: string) => string;
  /** Spoken when a result arrives. */
  announce: (score: string, rating: string, change: number, points: string, current: string) => string;
  factorsHeading: string;
  before: string;
  after: string;
  factorChange: Record<FactorChange, string>;
  disclaimerHeading: string;
  /** Shown instead of the API's English disclaimer in other languages. */
  disclaimer: string | null;
}

const enPoints = (count: number) => (count === 1 ? 'point' : 'points');
const esPoints = (count: number) => (count === 1 ? 'punto' : 'puntos');
/** A typographic minus, as figures are printed; the words spoken say "down". */
const signed = (change: number, points: string) => `${change > 0 ? '+' : '−'}${points}`;

/** The API's fragment ("must be more than 0") as a sentence about the field. */
const enApiProblem = (slot: DraftSlot, message: string) => {
  const text = message.trim().replace(/\.$/, '');
  if (/^(must|is|cannot|can't|should|has|needs)\b/.test(text)) {
    return `${slot === 'amount' ? 'This amount' : slot === 'accountId' ? 'This account' : 'This'} ${text}.`;
  }
  return `${text.charAt(0).toLocaleUpperCase()}${text.slice(1)}.`;
};

export const messages: { en: SimulatorMessages; es: SimulatorMessages } = {
  en: {
    heading: 'What if…',
    intro:
      'Try something you might do and see how your score could change. Nothing here is saved or reported, and your credit file is not checked again.',
    loading: 'Loading your accounts…',
    actionLegend: (position) => `Action ${position}`,
    actionType: 'What would you do?',
    actionTypes: {
      pay_down_balance: 'Pay down a balance',
      pay_on_time: 'Pay every bill on time',
      raise_credit_limit: 'Get a higher credit limit',
      open_credit_card: 'Open a new credit card',
      take_loan: 'Take out a loan',
      close_account: 'Close an account',
      miss_payment: 'Miss a payment',
      hard_inquiry: 'Apply for credit',
    },
    actionHints: {
      pay_down_balance: 'Lower what you owe on one account.',
      pay_on_time: 'Pay all your open accounts on time for a number of months.',
      raise_credit_limit: 'Your card’s lender raises your credit limit.',
      open_credit_card: 'A new card adds credit, a new account and a hard inquiry.',
      take_loan: 'A new loan adds an account, a balance and a hard inquiry.',
      close_account: 'The account stops adding to your available credit.',
      miss_payment: 'One payment is reported 30 days late.',
      hard_inquiry: 'One more hard inquiry, as when you apply for credit.',
    },
    account: 'Which account?',
    accountOption: (creditor, type, figure) => `${creditor} · ${type} · ${figure}`,
    balanceFigure: (balance) => `balance ${balance}`,
    limitFigure: (limit) => `limit ${limit}`,
    loanType: 'Kind of loan',
    loanTypes: { auto_loan: 'Auto loan', personal_loan: 'Personal loan', student_loan: 'Student loan', mortgage: 'Mortgage' },
    amountLabels: {
      pay_down_balance: 'Amount to pay',
      pay_on_time: 'Months of on-time payments',
      raise_credit_limit: 'New credit limit',
      open_credit_card: 'Credit limit of the new card',
      take_loan: 'Loan amount',
    },
    upToBalance: (balance) => `Up to the balance, ${balance}.`,
    currentLimit: (limit) => `The limit now is ${limit}.`,
    monthsHint: (max) => `From 1 to ${max} months.`,
    slider: 'Slider',
    remove: 'Remove',
    addAction: 'Add another action',
    run: 'See my estimated score',
    running: 'Estimating…',
    runFailed: 'We could not estimate your score just now. Please try again.',
    planProblem: (apiMessage) => `We could not estimate this: ${apiMessage.trim().replace(/\.$/, '')}.`,
    problemCount: (count) =>
      count === 1 ? '1 thing to fix before we can estimate.' : `${count} things to fix before we can estimate.`,
    problems: {
      chooseAccount: 'Choose an account.',
      enterAmount: 'Enter a number.',
      tooLow: 'Enter an amount above $0.',
      tooHigh: (max) => `Enter an amount up to ${max}.`,
      moreThanBalance: (balance) => `You can pay at most the balance, ${balance}.`,
      notAboveLimit: (limit) => `Enter a limit above the one you have now, ${limit}.`,
      months: (max) => `Enter a whole number of months from 1 to ${max}.`,
      api: enApiProblem,
    },
    resultHeading: 'Your estimated score',
    stale: 'You changed your choices since this estimate. Press “See my estimated score” to update it.',
    dialLabel: (score, rating, min, max) => `Estimated score gauge from ${min} to ${max}, showing ${score}, ${rating}`,
    change: (change, points) => (change === 0 ? 'No change' : `${signed(change, points)} ${enPoints(Math.abs(change))}`),
    now: (score, rating) => `Your score now: ${score}, ${rating}.`,
    announce: (score, rating, change, points, current) =>
      change === 0
        ? `Estimated score ${score}, ${rating}: no change from ${current}.`
        : `Estimated score ${score}, ${rating}: ${change > 0 ? 'up' : 'down'} ${points} ${enPoints(Math.abs(change))} from ${current}.`,
    factorsHeading: 'What would change',
    before: 'Now',
    after: 'After',
    factorChange: { better: 'Better', worse: 'Worse', same: 'No change' },
    disclaimerHeading: 'This is only an estimate',
    disclaimer: null,
  },
  es: {
    heading: '¿Qué pasaría si…?',
    intro:
      'Pruebe algo que podría hacer y vea cómo podría cambiar su puntaje. Nada de esto se guarda ni se informa, y no se vuelve a consultar su expediente de crédito.',
    loading: 'Cargando sus cuentas…',
    actionLegend: (position) => `Acción ${position}`,
    actionType: '¿Qué haría?',
    actionTypes: {
      pay_down_balance: 'Pagar parte de un saldo',
      pay_on_time: 'Pagar todo a tiempo',
      raise_credit_limit: 'Obtener un límite de crédito mayor',
      open_credit_card: 'Abrir una tarjeta de crédito nueva',
      take_loan: 'Pedir un préstamo',
      close_account: 'Cerrar una cuenta',
      miss_payment: 'Atrasarse en un pago',
      hard_inquiry: 'Solicitar crédito',
    },
    actionHints: {
      pay_down_balance: 'Reduzca lo que debe en una cuenta.',
      pay_on_time: 'Pague todas sus cuentas abiertas a tiempo durante varios meses.',
      raise_credit_limit: 'El emisor de su tarjeta le sube el límite de crédito.',
      open_credit_card: 'Una tarjeta nueva suma crédito, una cuenta nueva y una consulta dura.',
      take_loan: 'Un préstamo nuevo suma una cuenta, un saldo y una consulta dura.',
      close_account: 'La cuenta deja de sumar a su crédito disponible.',
      miss_payment: 'Se informa un pago con 30 días de atraso.',
      hard_inquiry: 'Una consulta dura más, como cuando solicita crédito.',
    },
    account: '¿Qué cuenta?',
    accountOption: (creditor, type, figure) => `${creditor} · ${type} · ${figure}`,
    balanceFigure: (balance) => `saldo ${balance}`,
    limitFigure: (limit) => `límite ${limit}`,
    loanType: 'Tipo de préstamo',
    loanTypes: {
      auto_loan: 'Préstamo de auto',
      personal_loan: 'Préstamo personal',
      student_loan: 'Préstamo estudiantil',
      mortgage: 'Hipoteca',
    },
    amountLabels: {
      pay_down_balance: 'Monto a pagar',
      pay_on_time: 'Meses pagando a tiempo',
      raise_credit_limit: 'Nuevo límite de crédito',
      open_credit_card: 'Límite de crédito de la tarjeta nueva',
      take_loan: 'Monto del préstamo',
    },
    upToBalance: (balance) => `Hasta el saldo, ${balance}.`,
    currentLimit: (limit) => `El límite actual es ${limit}.`,
    monthsHint: (max) => `De 1 a ${max} meses.`,
    slider: 'Control deslizante',
    remove: 'Quitar',
    addAction: 'Agregar otra acción',
    run: 'Ver mi puntaje estimado',
    running: 'Calculando…',
    runFailed: 'No pudimos estimar su puntaje en este momento. Inténtelo de nuevo.',
    planProblem: () => 'No pudimos calcular esta estimación. Revise sus acciones.',
    problemCount: (count) =>
      count === 1 ? 'Hay 1 dato que corregir antes de calcular.' : `Hay ${count} datos que corregir antes de calcular.`,
    problems: {
      chooseAccount: 'Elija una cuenta.',
      enterAmount: 'Escriba un número.',
      tooLow: 'Escriba un monto mayor que $0.',
      tooHigh: (max) => `Escriba un monto de hasta ${max}.`,
      moreThanBalance: (balance) => `Puede pagar como máximo el saldo, ${balance}.`,
      notAboveLimit: (limit) => `Escriba un límite mayor que el actual, ${limit}.`,
      months: (max) => `Escriba un número entero de meses, de 1 a ${max}.`,
      api: (slot) =>
        slot === 'amount'
          ? 'Revise este monto.'
          : slot === 'accountId'
            ? 'Elija otra cuenta.'
            : slot === 'action'
              ? 'Esta acción no se puede simular así. Revísela.'
              : 'Revise este dato.',
    },
    resultHeading: 'Su puntaje estimado',
    stale: 'Cambió sus opciones después de esta estimación. Pulse “Ver mi puntaje estimado” para actualizarla.',
    dialLabel: (score, rating, min, max) => `Indicador del puntaje estimado de ${min} a ${max}: muestra ${score}, ${rating}`,
    change: (change, points) => (change === 0 ? 'Sin cambio' : `${signed(change, points)} ${esPoints(Math.abs(change))}`),
    now: (score, rating) => `Su puntaje actual: ${score}, ${rating}.`,
    announce: (score, rating, change, points, current) =>
      change === 0
        ? `Puntaje estimado ${score}, ${rating}: sin cambio respecto de ${current}.`
        : `Puntaje estimado ${score}, ${rating}: ${change > 0 ? 'sube' : 'baja'} ${points} ${esPoints(Math.abs(change))} respecto de ${current}.`,
    factorsHeading: 'Qué cambiaría',
    before: 'Ahora',
    after: 'Después',
    factorChange: { better: 'Mejor', worse: 'Peor', same: 'Sin cambio' },
    disclaimerHeading: 'Es solo una estimación',
    disclaimer:
      'Esto es una estimación, no una promesa: su puntaje real depende de todo lo que informen los prestamistas y de cuándo lo informen. No se guardó nada y no se volvió a consultar su expediente de crédito.',
  },
};
