/** Why the widget asks for consent on an enrolled customer's visit (the API's `monitoring.pausedReason`). */
export type ConsentReason = 'consent_withdrawn' | 'consent_expired' | 'consent_required';

interface ScreenMessages {
  title: Record<ConsentReason, string>;
  /** The confirmation right after the customer withdrew here. */
  withdrawnNow: (date: string) => string;
  withdrawnOn: (date: string) => string;
  expired: (acceptedOn: string | null, endedOn: string | null) => string;
  newTerms: (version: string) => string;
  paused: string;
  dataKept: (partnerName: string) => string;
  howToRestart: string;
  submit: Record<ConsentReason, string>;
  submitting: string;
  given: string;
  failed: string;
  loading: string;
  /** The withdraw screen. */
  withdrawTitle: string;
  withdrawIntro: string;
  withdrawEffects: (partnerName: string) => string[];
  withdraw: string;
  withdrawing: string;
  keep: string;
  withdrawFailed: string;
}

export const screenMessages: { en: ScreenMessages; es: ScreenMessages } = {
  en: {
    title: {
      consent_withdrawn: 'Credit monitoring is stopped',
      consent_expired: 'Your permission has ended',
      consent_required: 'Please review the updated terms',
    },
    withdrawnNow: (date) => `Done: you withdrew your permission on ${date}.`,
    withdrawnOn: (date) => `You withdrew your permission on ${date}.`,
    expired: (acceptedOn, endedOn) =>
      acceptedOn && endedOn
        ? `The permission you gave on ${acceptedOn} ended on ${endedOn}.`
        : 'The permission you gave us has ended.',
    newTerms: (version) => `The terms for checking your credit have changed (version ${version}).`,
    paused: 'We no longer get your credit report, and your score and alerts are not updated.',
    dataKept: (partnerName) =>
      `What we already have is kept until ${partnerName} removes you from this service; then it is deleted.`,
    howToRestart: 'To turn credit monitoring back on, read the terms below and give your permission again.',
    submit: {
      consent_withdrawn: 'Turn credit monitoring back on',
      consent_expired: 'Agree and continue',
      consent_required: 'Agree and continue',
    },
    submitting: 'Saving…',
    given: 'Thank you. Credit monitoring is on.',
    failed: 'We could not save your permission. Please try again.',
    loading: 'Loading your permission…',
    withdrawTitle: 'Stop credit monitoring',
    withdrawIntro: 'You can withdraw your permission to check your credit at any time. If you do:',
    withdrawEffects: (partnerName) => [
      'We stop getting your credit report at once.',
      'Your score, history and alerts stop updating.',
      `What we already have is kept until ${partnerName} removes you from this service; then it is deleted.`,
      'You can turn credit monitoring back on here whenever you like.',
    ],
    withdraw: 'Withdraw my permission',
    withdrawing: 'Withdrawing…',
    keep: 'Keep credit monitoring',
    withdrawFailed: 'We could not withdraw your permission. Please try again.',
  },
  es: {
    title: {
      consent_withdrawn: 'El monitoreo de crédito está detenido',
      consent_expired: 'Su permiso ha terminado',
      consent_required: 'Revise los términos actualizados',
    },
    withdrawnNow: (date) => `Listo: retiró su permiso el ${date}.`,
    withdrawnOn: (date) => `Retiró su permiso el ${date}.`,
    expired: (acceptedOn, endedOn) =>
      acceptedOn && endedOn
        ? `El permiso que nos dio el ${acceptedOn} terminó el ${endedOn}.`
        : 'El permiso que nos dio ha terminado.',
    newTerms: (version) => `Los términos para revisar su crédito cambiaron (versión ${version}).`,
    paused: 'Ya no obtenemos su reporte de crédito, y su puntaje y sus alertas no se actualizan.',
    dataKept: (partnerName) =>
      `Lo que ya tenemos se conserva hasta que ${partnerName} lo dé de baja de este servicio; entonces se borra.`,
    howToRestart: 'Para volver a activar el monitoreo de crédito, lea los términos y dé su permiso de nuevo.',
    submit: {
      consent_withdrawn: 'Volver a activar el monitoreo de crédito',
      consent_expired: 'Aceptar y continuar',
      consent_required: 'Aceptar y continuar',
    },
    submitting: 'Guardando…',
    given: 'Gracias. El monitoreo de crédito está activo.',
    failed: 'No pudimos guardar su permiso. Vuelva a intentarlo.',
    loading: 'Cargando su permiso…',
    withdrawTitle: 'Detener el monitoreo de crédito',
    withdrawIntro: 'Puede retirar su permiso para revisar su crédito cuando quiera. Si lo hace:',
    withdrawEffects: (partnerName) => [
      'Dejamos de obtener su reporte de crédito al instante.',
      'Su puntaje, historial y alertas dejan de actualizarse.',
      `Lo que ya tenemos se conserva hasta que ${partnerName} lo dé de baja de este servicio; entonces se borra.`,
      'Puede volver a activar el monitoreo aquí cuando quiera.',
    ],
    withdraw: 'Retirar mi permiso',
    withdrawing: 'Retirando…',
    keep: 'Seguir con el monitoreo',
    withdrawFailed: 'No pudimos retirar su permiso. Vuelva a intentarlo.',
  },
};
