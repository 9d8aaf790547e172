import type { TFactorCode } from '@credit/contract';

export type FactorImpact = 'high' | 'medium' | 'low';

interface FactorText {
  name: string;
  /** What the factor measures, in a sentence. */
  about: string;
  advice: Record<FactorImpact, string>;
}

interface FactorsMessages {
  heading: string;
  intro: string;
  loading: string;
  empty: string;
  impact: Record<FactorImpact, string>;
  standing: (score: string) => string;
  standingLabel: string;
  adviceHeading: string;
  factors: Record<TFactorCode, FactorText>;
  utilization: string;
  utilizationValue: (percent: string, balance: string, limit: string) => string;
  averageAge: string;
  oldestAccount: string;
  years: (years: string) => string;
  recentInquiries: string;
}

export const messages: { en: FactorsMessages; es: FactorsMessages } = {
  en: {
    heading: 'What affects your score',
    intro: 'Five things shape your score. The impact shows how much each one is holding your score back right now.',
    loading: 'Loading your score factors…',
    empty: 'There are no score factors to show yet.',
    impact: { high: 'High impact', medium: 'Medium impact', low: 'Low impact' },
    standing: (score) => `${score} out of 100`,
    standingLabel: 'How you are doing',
    adviceHeading: 'What you can do',
    factors: {
      PAYMENT_HISTORY: {
        name: 'Payment history',
        about: 'Whether you pay your bills on time. It counts more than anything else in your score.',
        advice: {
          high: 'Late or missed payments are pulling your score down. Set up automatic payments for at least the minimum due, and bring any overdue account up to date first.',
          medium: 'A few late payments are on your file. Paying on time every month from now on lets them fade in importance.',
          low: 'You pay on time. Keep it up: automatic payments make sure a busy month never breaks the streak.',
        },
      },
      CREDIT_UTILIZATION: {
        name: 'Credit utilization',
        about: 'How much of your card credit limits you are using.',
        advice: {
          high: 'You are using a large share of your limits. Paying balances down below 30% of your limits can raise your score quickly.',
          medium: 'Your balances are moderate. Paying them down further, ideally below 10% of your limits, would help.',
          low: 'You use little of your available credit, which helps your score. Keep balances low and pay cards in full if you can.',
        },
      },
      CREDIT_AGE: {
        name: 'Length of credit history',
        about: 'How long your accounts have been open, on average and for the oldest one.',
        advice: {
          high: 'Your credit history is short. Time is the fix: keep your oldest accounts open and avoid opening many new ones.',
          medium: 'Your history is building. Keeping older accounts open, even if you rarely use them, helps it grow.',
          low: 'You have a long credit history. Keep your oldest accounts open so it stays that way.',
        },
      },
      CREDIT_MIX: {
        name: 'Credit mix',
        about: 'The variety of your accounts, such as cards, car loans and a mortgage.',
        advice: {
          high: 'You have few kinds of credit. Do not borrow just for this, but handling different types well over time helps.',
          medium: 'Your mix is reasonable. There is no need to open accounts just to change it.',
          low: 'You handle several kinds of credit well. Nothing to change here.',
        },
      },
      NEW_CREDIT: {
        name: 'New credit',
        about: 'How many times you applied for credit recently (hard inquiries).',
        advice: {
          high: 'Several recent applications are lowering your score. Hold off on new applications for a while; inquiries stop counting after 12 months.',
          medium:
            'You applied for credit recently. Space out new applications, and compare rates within a short window when shopping for a loan.',
          low: 'You have few recent applications. Apply only for credit you need to keep it that way.',
        },
      },
    },
    utilization: 'Credit used',
    utilizationValue: (percent, balance, limit) => `${percent} (${balance} of ${limit})`,
    averageAge: 'Average account age',
    oldestAccount: 'Oldest account',
    years: (years) => `${years} years`,
    recentInquiries: 'Hard inquiries in the last 12 months',
  },
  es: {
    heading: 'Qué influye en su puntaje',
    intro: 'Cinco aspectos forman su puntaje. El impacto indica cuánto está frenando su puntaje cada uno en este momento.',
    loading: 'Cargando los factores de su puntaje…',
    empty: 'Todavía no hay factores que mostrar.',
    impact: { high: 'Impacto alto', medium: 'Impacto medio', low: 'Impacto bajo' },
    standing: (score) => `${score} de 100`,
    standingLabel: 'Cómo le va',
    adviceHeading: 'Qué puede hacer',
    factors: {
      PAYMENT_HISTORY: {
        name: 'Historial de pagos',
        about: 'Si paga sus cuentas a tiempo. Es lo que más cuenta en su puntaje.',
        advice: {
          high: 'Los pagos atrasados o no realizados están bajando su puntaje. Programe pagos automáticos de al menos el mínimo y ponga al día primero las cuentas vencidas.',
          medium:
            'Su historial tiene algunos pagos atrasados. Pagar a tiempo cada mes a partir de ahora hace que pesen cada vez menos.',
          low: 'Usted paga a tiempo. Siga así: los pagos automáticos evitan que un mes complicado rompa la racha.',
        },
      },
      CREDIT_UTILIZATION: {
        name: 'Uso del crédito',
        about: 'Qué parte de los límites de sus tarjetas está usando.',
        advice: {
          high: 'Está usando gran parte de sus límites. Bajar los saldos a menos del 30 % de sus límites puede subir su puntaje rápidamente.',
          medium: 'Sus saldos son moderados. Reducirlos más, idealmente a menos del 10 % de sus límites, le ayudaría.',
          low: 'Usa poco de su crédito disponible, lo que favorece su puntaje. Mantenga saldos bajos y pague sus tarjetas por completo si puede.',
        },
      },
      CREDIT_AGE: {
        name: 'Antigüedad del crédito',
        about: 'Cuánto tiempo llevan abiertas sus cuentas, en promedio y la más antigua.',
        advice: {
          high: 'Su historial de crédito es corto. La solución es el tiempo: mantenga abiertas sus cuentas más antiguas y evite abrir muchas nuevas.',
          medium: 'Su historial está creciendo. Mantener abiertas las cuentas antiguas, aunque las use poco, lo ayuda a crecer.',
          low: 'Tiene un historial de crédito largo. Mantenga abiertas sus cuentas más antiguas para conservarlo.',
        },
      },
      CREDIT_MIX: {
        name: 'Tipos de crédito',
        about: 'La variedad de sus cuentas, como tarjetas, préstamos de auto e hipoteca.',
        advice: {
          high: 'Tiene pocos tipos de crédito. No pida préstamos solo por esto, pero manejar bien distintos tipos con el tiempo ayuda.',
          medium: 'Su combinación es razonable. No hace falta abrir cuentas solo para cambiarla.',
          low: 'Maneja bien varios tipos de crédito. No hay nada que cambiar aquí.',
        },
      },
      NEW_CREDIT: {
        name: 'Crédito nuevo',
        about: 'Cuántas veces solicitó crédito recientemente (consultas duras).',
        advice: {
          high: 'Varias solicitudes recientes están bajando su puntaje. Espere un tiempo antes de pedir más crédito; las consultas dejan de contar a los 12 meses.',
          medium: 'Solicitó crédito hace poco. Espacie las nuevas solicitudes y, si compara préstamos, hágalo en un plazo corto.',
          low: 'Tiene pocas solicitudes recientes. Solicite solo el crédito que necesite para mantenerlo así.',
        },
      },
    },
    utilization: 'Crédito usado',
    utilizationValue: (percent, balance, limit) => `${percent} (${balance} de ${limit})`,
    averageAge: 'Antigüedad promedio de las cuentas',
    oldestAccount: 'Cuenta más antigua',
    years: (years) => `${years} años`,
    recentInquiries: 'Consultas duras en los últimos 12 meses',
  },
};
