import type { TPaymentStatus } from '@credit/contract';

type PublicRecordType = 'bankruptcy_chapter_7' | 'bankruptcy_chapter_13';
type PublicRecordStatus = 'filed' | 'discharged' | 'dismissed';

interface ReportMessages {
  heading: string;
  loading: string;
  source: (bureau: string, date: string) => string;
  summaryHeading: string;
  openAccounts: string;
  totalBalance: string;
  cardBalances: string;
  /** "$4,700 of $20,000". */
  ofLimit: (balance: string, limit: string) => string;
  utilization: string;
  monthlyPayments: string;
  oldestAccount: string;
  averageAge: string;
  years: (years: string) => string;
  hardInquiries: string;
  hardInquiriesValue: (in24: string, in12: string) => string;
  latePayments: string;
  derogatoryMarks: string;
  onTime: string;
  accountsHeading: (count: number) => string;
  noAccounts: string;
  originalCreditor: (name: string) => string;
  opened: string;
  closed: string;
  balance: string;
  creditLimit: string;
  originalAmount: string;
  amountPlaced: string;
  monthlyPayment: string;
  minimumPayment: string;
  apr: string;
  term: string;
  months: (months: string) => string;
  accountUtilization: string;
  lifetimeLatePayments: string;
  /** The collapsed payment history's summary: how many of the months shown were late. */
  historySummary: (months: number, late: number) => string;
  historyCaption: (account: string, months: number) => string;
  historyRegion: (account: string) => string;
  year: string;
  /** Meaning of each month's grade, as read out in the grid and listed in its key. */
  paymentStatus: Record<TPaymentStatus, string>;
  legend: string;
  inquiriesHeading: string;
  hardHeading: string;
  hardAbout: string;
  softHeading: string;
  softAbout: string;
  noHard: string;
  noSoft: string;
  publicRecordsHeading: string;
  noPublicRecords: string;
  publicRecordTypes: Record<PublicRecordType, string>;
  publicRecordStatuses: Record<PublicRecordStatus, string>;
  filed: string;
  resolved: string;
  court: string;
  personalHeading: string;
  personalAbout: string;
  names: string;
  yearOfBirth: string;
  notReported: string;
  addresses: string;
  employers: string;
  reportedOn: (date: string) => string;
}

export const messages: { en: ReportMessages; es: ReportMessages } = {
  en: {
    heading: 'Credit report',
    loading: 'Loading your credit report…',
    source: (bureau, date) => `From ${bureau}, report of ${date}.`,
    summaryHeading: 'Summary',
    openAccounts: 'Open accounts',
    totalBalance: 'Total balance',
    cardBalances: 'Card balances',
    ofLimit: (balance, limit) => `${balance} of ${limit}`,
    utilization: 'Credit used',
    monthlyPayments: 'Monthly payments',
    oldestAccount: 'Oldest account',
    averageAge: 'Average account age',
    years: (years) => `${years} years`,
    hardInquiries: 'Hard inquiries',
    hardInquiriesValue: (in24, in12) => `${in24} in 24 months (${in12} in 12)`,
    latePayments: 'Late payments',
    derogatoryMarks: 'Negative marks',
    onTime: 'Payments on time',
    accountsHeading: (count) => `Accounts (${count})`,
    noAccounts: 'There are no accounts on your report.',
    originalCreditor: (name) => `Originally owed to ${name}`,
    opened: 'Opened',
    closed: 'Closed',
    balance: 'Balance',
    creditLimit: 'Credit limit',
    originalAmount: 'Amount borrowed',
    amountPlaced: 'Amount placed',
    monthlyPayment: 'Monthly payment',
    minimumPayment: 'Minimum payment',
    apr: 'APR',
    term: 'Term',
    months: (months) => `${months} months`,
    accountUtilization: 'Credit used',
    lifetimeLatePayments: 'Late payments, ever',
    historySummary: (months, late) =>
      late === 0
        ? `Payment history: no late payments in ${months} months`
        : `Payment history: ${late} late ${late === 1 ? 'month' : 'months'} in ${months}`,
    historyCaption: (account, months) => `${account}: payments over the last ${months} months`,
    historyRegion: (account) => `Payment history, ${account}`,
    year: 'Year',
    paymentStatus: {
      ok: 'Paid on time',
      '30': '30 days late',
      '60': '60 days late',
      '90': '90 days late',
      '120': '120 days late or more',
      charge_off: 'Charged off by the lender',
      no_data: 'Nothing reported',
    },
    legend: 'Key',
    inquiriesHeading: 'Inquiries',
    hardHeading: 'Hard inquiries',
    hardAbout: 'You applied for credit. Each can lower your score for up to a year.',
    softHeading: 'Soft inquiries',
    softAbout: 'Checks that are not applications, such as your own or a lender’s pre-approval. They do not affect your score.',
    noHard: 'No hard inquiries in the last 24 months.',
    noSoft: 'No soft inquiries in the last 24 months.',
    publicRecordsHeading: 'Public records',
    noPublicRecords: 'There are no public records on your report.',
    publicRecordTypes: { bankruptcy_chapter_7: 'Chapter 7 bankruptcy', bankruptcy_chapter_13: 'Chapter 13 bankruptcy' },
    publicRecordStatuses: { filed: 'Filed', discharged: 'Discharged', dismissed: 'Dismissed' },
    filed: 'Filed',
    resolved: 'Resolved',
    court: 'Court',
    personalHeading: 'Personal information',
    personalAbout: 'As the bureau has it. Parts of streets and employers are hidden (•) to protect your privacy.',
    names: 'Names',
    yearOfBirth: 'Year of birth',
    notReported: 'Not reported',
    addresses: 'Addresses',
    employers: 'Employers',
    reportedOn: (date) => `Reported ${date}`,
  },
  es: {
    heading: 'Informe de crédito',
    loading: 'Cargando su informe de crédito…',
    source: (bureau, date) => `De ${bureau}, informe del ${date}.`,
    summaryHeading: 'Resumen',
    openAccounts: 'Cuentas abiertas',
    totalBalance: 'Saldo total',
    cardBalances: 'Saldos de tarjetas',
    ofLimit: (balance, limit) => `${balance} de ${limit}`,
    utilization: 'Crédito usado',
    monthlyPayments: 'Pagos mensuales',
    oldestAccount: 'Cuenta más antigua',
    averageAge: 'Antigüedad promedio de las cuentas',
    years: (years) => `${years} años`,
    hardInquiries: 'Consultas duras',
    hardInquiriesValue: (in24, in12) => `${in24} en 24 meses (${in12} en 12)`,
    latePayments: 'Pagos atrasados',
    derogatoryMarks: 'Marcas negativas',
    onTime: 'Pagos a tiempo',
    accountsHeading: (count) => `Cuentas (${count})`,
    noAccounts: 'No hay cuentas en su informe.',
    originalCreditor: (name) => `Deuda original con ${name}`,
    opened: 'Apertura',
    closed: 'Cierre',
    balance: 'Saldo',
    creditLimit: 'Límite de crédito',
    originalAmount: 'Monto prestado',
    amountPlaced: 'Monto asignado',
    monthlyPayment: 'Pago mensual',
    minimumPayment: 'Pago mínimo',
    apr: 'Tasa anual (APR)',
    term: 'Plazo',
    months: (months) => `${months} meses`,
    accountUtilization: 'Crédito usado',
    lifetimeLatePayments: 'Pagos atrasados, en total',
    historySummary: (months, late) =>
      late === 0
        ? `Historial de pagos: ningún pago atrasado en ${months} meses`
        : `Historial de pagos: ${late} ${late === 1 ? 'mes atrasado' : 'meses atrasados'} de ${months}`,
    historyCaption: (account, months) => `${account}: pagos de los últimos ${months} meses`,
    historyRegion: (account) => `Historial de pagos, ${account}`,
    year: 'Año',
    paymentStatus: {
      ok: 'Pagado a tiempo',
      '30': '30 días de atraso',
      '60': '60 días de atraso',
      '90': '90 días de atraso',
      '120': '120 días de atraso o más',
      charge_off: 'Cancelada como pérdida por el prestamista',
      no_data: 'Sin información',
    },
    legend: 'Clave',
    inquiriesHeading: 'Consultas',
    hardHeading: 'Consultas duras',
    hardAbout: 'Usted solicitó crédito. Cada una puede bajar su puntaje hasta por un año.',
    softHeading: 'Consultas suaves',
    softAbout: 'Revisiones que no son solicitudes, como las suyas o la preaprobación de un prestamista. No afectan su puntaje.',
    noHard: 'Ninguna consulta dura en los últimos 24 meses.',
    noSoft: 'Ninguna consulta suave en los últimos 24 meses.',
    publicRecordsHeading: 'Registros públicos',
    noPublicRecords: 'No hay registros públicos en su informe.',
    publicRecordTypes: {
      bankruptcy_chapter_7: 'Bancarrota del Capítulo 7',
      bankruptcy_chapter_13: 'Bancarrota del Capítulo 13',
    },
    publicRecordStatuses: { filed: 'Presentada', discharged: 'Liberada', dismissed: 'Desestimada' },
    filed: 'Presentación',
    resolved: 'Resolución',
    court: 'Tribunal',
    personalHeading: 'Información personal',
    personalAbout:
      'Tal como la tiene la agencia. Parte de las calles y de los empleadores está oculta (•) para proteger su privacidad.',
    names: 'Nombres',
    yearOfBirth: 'Año de nacimiento',
    notReported: 'No informado',
    addresses: 'Direcciones',
    employers: 'Empleadores',
    reportedOn: (date) => `Informado el ${date}`,
  },
};
