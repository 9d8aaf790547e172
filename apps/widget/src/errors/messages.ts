import type { WidgetErrorCode } from '@credit/contract/widget-protocol';

export interface ErrorText {
  title: string;
  body: string;
}

type ErrorMessages = Record<WidgetErrorCode, ErrorText> & {
  RATE_LIMITED: ErrorText;
  tryAgain: string;
  close: string;
  unlocksAt: (when: string) => string;
  reference: (requestId: string) => string;
};

export const messages: { en: ErrorMessages; es: ErrorMessages } = {
  en: {
    FRAME_REFUSED: {
      title: 'The credit widget could not open',
      body: 'This page is not allowed to show it. Please contact your bank.',
    },
    ORIGIN_NOT_ALLOWED: {
      title: 'The credit widget is not available here',
      body: 'This website is not allowed to show your credit information. Please contact your bank.',
    },
    INVALID_TOKEN: {
      title: 'Your session has ended',
      body: 'For your security, your session timed out. Close this window and open it again to continue.',
    },
    USER_NOT_ENROLLED: {
      title: 'Finish setting up first',
      body: 'We need to confirm your identity before we can show your credit information.',
    },
    VERIFICATION_LOCKED: {
      title: 'Identity verification is locked',
      body: 'There were too many unsuccessful attempts to confirm your identity. For your security, please wait before trying again.',
    },
    CONSENT_REQUIRED: {
      title: 'Your permission is needed',
      body: 'Credit monitoring is paused until you give your permission to check your credit again.',
    },
    CREDIT_FROZEN: {
      title: 'Your credit file is frozen',
      body: 'A security freeze is on your credit file, so we cannot show your score. Lift the freeze with the credit bureau, then come back.',
    },
    SERVICE_UNAVAILABLE: {
      title: 'We cannot reach the credit bureau right now',
      body: 'This is usually temporary. Please try again in a few minutes.',
    },
    NETWORK_ERROR: { title: 'You seem to be offline', body: 'Check your internet connection, then try again.' },
    UNKNOWN: { title: 'Something went wrong', body: 'Please try again. If this keeps happening, contact your bank.' },
    RATE_LIMITED: { title: 'Too many requests', body: 'Please wait a moment, then try again.' },
    tryAgain: 'Try again',
    close: 'Close',
    unlocksAt: (when) => `You can try again after ${when}.`,
    reference: (requestId) => `Reference: ${requestId}`,
  },
  es: {
    FRAME_REFUSED: {
      title: 'No se pudo abrir el widget de crédito',
      body: 'Esta página no tiene permiso para mostrarlo. Comuníquese con su banco.',
    },
    ORIGIN_NOT_ALLOWED: {
      title: 'El widget de crédito no está disponible aquí',
      body: 'Este sitio web no tiene permiso para mostrar su información de crédito. Comuníquese con su banco.',
    },
    INVALID_TOKEN: {
      title: 'Su sesión terminó',
      body: 'Por su seguridad, la sesión caducó. Cierre esta ventana y vuelva a abrirla para continuar.',
    },
    USER_NOT_ENROLLED: {
      title: 'Primero termine la configuración',
      body: 'Necesitamos confirmar su identidad antes de mostrar su información de crédito.',
    },
    VERIFICATION_LOCKED: {
      title: 'La verificación de identidad está bloqueada',
      body: 'Hubo demasiados intentos fallidos para confirmar su identidad. Por su seguridad, espere antes de volver a intentarlo.',
    },
    CONSENT_REQUIRED: {
      title: 'Necesitamos su permiso',
      body: 'El monitoreo de crédito está en pausa hasta que vuelva a darnos permiso para revisar su crédito.',
    },
    CREDIT_FROZEN: {
      title: 'Su expediente de crédito está congelado',
      body: 'Su expediente tiene un congelamiento de seguridad, así que no podemos mostrar su puntaje. Levante el congelamiento con la agencia de crédito y vuelva.',
    },
    SERVICE_UNAVAILABLE: {
      title: 'No podemos comunicarnos con la agencia de crédito',
      body: 'Suele ser temporal. Vuelva a intentarlo en unos minutos.',
    },
    NETWORK_ERROR: { title: 'Parece que no tiene conexión', body: 'Revise su conexión a internet y vuelva a intentarlo.' },
    UNKNOWN: { title: 'Algo salió mal', body: 'Vuelva a intentarlo. Si el problema continúa, comuníquese con su banco.' },
    RATE_LIMITED: { title: 'Demasiadas solicitudes', body: 'Espere un momento y vuelva a intentarlo.' },
    tryAgain: 'Reintentar',
    close: 'Cerrar',
    // es-US times end in "p.m.": no second full stop after them.
    unlocksAt: (when) => `Podrá intentarlo de nuevo después del ${when.replace(/\.$/, '')}.`,
    reference: (requestId) => `Referencia: ${requestId}`,
  },
};
