/** What the instruction needs to say in numbers and names; the widget session brings them from the server. */
export interface ConsentFacts {
  termsVersion: string;
  partnerName: string;
  refreshIntervalDays: number;
  validityDays: number;
  /** The last day the consent runs if given now, already formatted. */
  validUntil: string;
}

interface InstructionMessages {
  heading: string;
  intro: string;
  /** Each line: a short label and the plain-language answer. */
  items: (facts: ConsentFacts) => { label: string; text: string }[];
  version: (version: string) => string;
  agree: (partnerName: string) => string;
  mustAgree: string;
}

const lengthEn = (days: number) => (days === 365 ? '1 year' : days % 365 === 0 ? `${days / 365} years` : `${days} days`);
const lengthEs = (days: number) => (days === 365 ? '1 año' : days % 365 === 0 ? `${days / 365} años` : `${days} días`);

/**
 * The consent instruction (FCRA §604(a)(2): the consumer's written instruction), version `2026-11-25`. A new
 * terms version means new words here: the version shown is the one the server says is current, and the
 * consent is recorded under it.
 */
export const instructionMessages: { en: InstructionMessages; es: InstructionMessages } = {
  en: {
    heading: 'Your permission to check your credit',
    intro: 'To show you your credit score, we need your permission to get your credit report. Please read this first.',
    items: (f) => [
      { label: 'What we get', text: 'Your credit report and credit score.' },
      {
        label: 'From where',
        text: 'From a national credit bureau (Equifax, Experian or TransUnion). Checking your own credit does not lower your score.',
      },
      {
        label: 'Who sees it',
        text: `Credit API, which runs this service, and ${f.partnerName}, which offers it to you. Only to show you your credit and to tell you when it changes (credit monitoring).`,
      },
      {
        label: 'How often',
        text: `Now, then about every ${f.refreshIntervalDays} days, and whenever you press “Refresh score” (at most once a day).`,
      },
      {
        label: 'For how long',
        text: `For ${lengthEn(f.validityDays)}, until ${f.validUntil}, unless you stop it sooner. We will ask you again then.`,
      },
      {
        label: 'How to stop',
        text: 'Any time, here: press “Stop credit monitoring” at the bottom of your credit dashboard. We stop checking at once.',
      },
    ],
    version: (version) => `Consent terms version ${version}`,
    agree: (partnerName) =>
      `I agree that Credit API and ${partnerName} may get my credit report for credit monitoring, as described above.`,
    mustAgree: 'Check the box to give your permission. Without it we cannot show your credit score.',
  },
  es: {
    heading: 'Su permiso para revisar su crédito',
    intro: 'Para mostrarle su puntaje de crédito necesitamos su permiso para obtener su reporte de crédito. Léalo primero.',
    items: (f) => [
      { label: 'Qué obtenemos', text: 'Su reporte de crédito y su puntaje de crédito.' },
      {
        label: 'De dónde',
        text: 'De una agencia nacional de crédito (Equifax, Experian o TransUnion). Revisar su propio crédito no baja su puntaje.',
      },
      {
        label: 'Quién lo ve',
        text: `Credit API, que opera este servicio, y ${f.partnerName}, que se lo ofrece. Solo para mostrarle su crédito y avisarle cuando cambie (monitoreo de crédito).`,
      },
      {
        label: 'Cada cuánto',
        text: `Ahora, luego cada ${f.refreshIntervalDays} días aproximadamente, y cuando usted pulse “Actualizar puntaje” (como máximo una vez al día).`,
      },
      {
        label: 'Por cuánto tiempo',
        text: `Durante ${lengthEs(f.validityDays)}, hasta el ${f.validUntil}, salvo que lo detenga antes. Entonces le volveremos a preguntar.`,
      },
      {
        label: 'Cómo detenerlo',
        text: 'Cuando quiera, aquí: pulse “Detener el monitoreo de crédito” al final de su panel de crédito. Dejamos de revisar al instante.',
      },
    ],
    version: (version) => `Versión de los términos de consentimiento: ${version}`,
    agree: (partnerName) =>
      `Acepto que Credit API y ${partnerName} obtengan mi reporte de crédito para el monitoreo de crédito, como se describe arriba.`,
    mustAgree: 'Marque la casilla para dar su permiso. Sin él no podemos mostrarle su puntaje de crédito.',
  },
};
