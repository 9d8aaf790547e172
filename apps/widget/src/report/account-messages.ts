import type { TReportAccountStatus, TReportAccountType } from '@credit/contract';

/**
 * How an account on the credit report is named: the Report and What-if tabs list accounts, and an offer's savings
 * name the account it would refinance. Kept apart from the report's own strings so the offers tab, which loads
 * with the widget, does not pull those in.
 */
interface AccountMessages {
  /** As a label on its own: "Credit card". */
  types: Record<TReportAccountType, string>;
  statuses: Record<TReportAccountStatus, string>;
  /** Inside a sentence: "Northwind Bank credit card", "tarjeta de crédito de Northwind Bank". */
  accountName: (creditor: string, type: TReportAccountType) => string;
}

const EN_TYPES_IN_SENTENCE: Record<TReportAccountType, string> = {
  credit_card: 'credit card',
  auto_loan: 'auto loan',
  mortgage: 'mortgage',
  student_loan: 'student loan',
  personal_loan: 'personal loan',
  collection: 'collection account',
};

const ES_TYPES_IN_SENTENCE: Record<TReportAccountType, string> = {
  credit_card: 'tarjeta de crédito',
  auto_loan: 'préstamo de auto',
  mortgage: 'hipoteca',
  student_loan: 'préstamo estudiantil',
  personal_loan: 'préstamo personal',
  collection: 'cuenta en cobranza',
};

export const accountMessages: { en: AccountMessages; es: AccountMessages } = {
  en: {
    types: {
      credit_card: 'Credit card',
      auto_loan: 'Auto loan',
      mortgage: 'Mortgage',
      student_loan: 'Student loan',
      personal_loan: 'Personal loan',
      collection: 'Collection',
    },
    statuses: {
      open: 'Open',
      closed: 'Closed',
      paid_off: 'Paid off',
      charged_off: 'Charged off',
      in_collection: 'In collection',
      paid_collection: 'Collection paid',
    },
    accountName: (creditor, type) => `${creditor} ${EN_TYPES_IN_SENTENCE[type]}`,
  },
  es: {
    types: {
      credit_card: 'Tarjeta de crédito',
      auto_loan: 'Préstamo de auto',
      mortgage: 'Hipoteca',
      student_loan: 'Préstamo estudiantil',
      personal_loan: 'Préstamo personal',
      collection: 'Cobranza',
    },
    statuses: {
      open: 'Abierta',
      closed: 'Cerrada',
      paid_off: 'Pagada',
      charged_off: 'Cancelada como pérdida',
      in_collection: 'En cobranza',
      paid_collection: 'Cobranza pagada',
    },
    accountName: (creditor, type) => `${ES_TYPES_IN_SENTENCE[type]} de ${creditor}`,
  },
};
