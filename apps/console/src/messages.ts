import type { PageId } from './router.tsx';

/** The frame around every page: navigation, titles, who is signed in. */
export const shellMessages = {
  en: {
    skip: 'Skip to content',
    console: 'Console',
    sandbox: 'sandbox',
    navLabel: 'Console',
    signOut: 'Sign out',
    language: 'Language',
    roles: { viewer: 'viewer', editor: 'editor' },
    pages: {
      program: 'Program',
      offers: 'Offers',
      webhooks: 'Webhooks',
      events: 'Events',
      audit: 'Audit trail',
      customers: 'Customers',
      credentials: 'Credentials',
      sandbox: 'Sandbox',
    } satisfies Record<PageId, string>,
    title: (page: string, bank: string) => `${page} · ${bank} console`,
    unavailable: 'Not available to this session',
    unavailableWhy: (scope: string) =>
      `This page needs the “${scope}” scope, which your bank’s API client does not hold, so the console does not show ` +
      'it. Your administrator can ask the operator of this service to grant it.',
    nothingAvailable: 'Your bank’s API client holds no scope the console’s pages need.',
  },
  es: {
    skip: 'Saltar al contenido',
    console: 'Consola',
    sandbox: 'sandbox',
    navLabel: 'Consola',
    signOut: 'Cerrar sesión',
    language: 'Idioma',
    roles: { viewer: 'lector', editor: 'editor' },
    pages: {
      program: 'Programa',
      offers: 'Ofertas',
      webhooks: 'Webhooks',
      events: 'Eventos',
      audit: 'Registro de auditoría',
      customers: 'Clientes',
      credentials: 'Credenciales',
      sandbox: 'Sandbox',
    } satisfies Record<PageId, string>,
    title: (page: string, bank: string) => `${page} · consola de ${bank}`,
    unavailable: 'No disponible en esta sesión',
    unavailableWhy: (scope: string) =>
      `Esta página necesita el permiso (scope) “${scope}”, que el cliente de la API de su banco no tiene, así que la ` +
      'consola no la muestra. Su administrador puede pedir al operador de este servicio que se lo conceda.',
    nothingAvailable: 'El cliente de la API de su banco no tiene ningún permiso (scope) que necesiten las páginas de la consola.',
  },
};

/** Loading, and what went wrong in words a staff member can act on. */
export const stateMessages = {
  en: {
    loading: (what: string) => `Loading ${what}…`,
    tryAgain: 'Try again',
    working: 'Working…',
    notAccepted: 'The request was not accepted',
    ended: 'Your console session has ended',
    endedAdvice: 'Open a new console link from your bank’s admin tools, then come back to this page.',
    notAllowed: 'Not allowed',
    notFound: 'Not found',
    notFoundAdvice: 'It may have been deleted, or it is not your bank’s. Check the id and search again.',
    tooMany: 'Too many requests for now',
    tooManyAdvice: (seconds: number) => `Wait ${seconds} seconds, then try again.`,
    failed: 'The API could not answer',
    failedAdvice: (requestId: string) =>
      `Try again in a minute. If it keeps failing, give your administrator this request id: ${requestId}.`,
    unreachable: 'The API could not be reached',
    unreachableAdvice: 'Check your network connection, then try again.',
  },
  es: {
    loading: (what: string) => `Cargando ${what}…`,
    tryAgain: 'Intentar de nuevo',
    working: 'Procesando…',
    notAccepted: 'La solicitud no fue aceptada',
    ended: 'Su sesión de la consola terminó',
    endedAdvice: 'Abra un nuevo enlace de la consola desde las herramientas de su banco y vuelva a esta página.',
    notAllowed: 'No permitido',
    notFound: 'No encontrado',
    notFoundAdvice: 'Puede que se haya eliminado, o que no sea de su banco. Revise el id y busque de nuevo.',
    tooMany: 'Demasiadas solicitudes por ahora',
    tooManyAdvice: (seconds: number) => `Espere ${seconds} segundos y vuelva a intentarlo.`,
    failed: 'La API no pudo responder',
    failedAdvice: (requestId: string) =>
      `Intente de nuevo en un minuto. Si sigue fallando, dé a su administrador este id de solicitud: ${requestId}.`,
    unreachable: 'No se pudo conectar con la API',
    unreachableAdvice: 'Revise su conexión de red y vuelva a intentarlo.',
  },
};
export type StateMessages = (typeof stateMessages)['en'];

/** Before the console opens: reading the session, and what a browser without one sees. */
export const gateMessages = {
  en: {
    opening: 'Opening the console…',
    notSignedIn: 'You are not signed in to the console',
    noSession: 'This browser holds no console session.',
    ended: 'Your console session has ended: signed out, or past its eight hours.',
    howToSignIn: 'Console links come from your bank’s admin tools. Each opens once, within ten minutes of being made.',
    couldNotStart: 'The console could not start',
    couldNotRead: (status: number) => `The console could not read your session (HTTP ${status}).`,
    couldNotStartAdvice: 'Reload the page in a minute; if it keeps failing, ask for a new link.',
    signOutFailed: (status: number) => `Signing out failed (HTTP ${status}); close the browser to end the session.`,
  },
  es: {
    opening: 'Abriendo la consola…',
    notSignedIn: 'No ha iniciado sesión en la consola',
    noSession: 'Este navegador no tiene una sesión de la consola.',
    ended: 'Su sesión de la consola terminó: la cerró, o pasaron sus ocho horas.',
    howToSignIn:
      'Los enlaces de la consola los dan las herramientas de administración de su banco. Cada uno se abre una vez, en los diez minutos siguientes a su creación.',
    couldNotStart: 'La consola no pudo iniciarse',
    couldNotRead: (status: number) => `La consola no pudo leer su sesión (HTTP ${status}).`,
    couldNotStartAdvice: 'Vuelva a cargar la página en un minuto; si sigue fallando, pida un enlace nuevo.',
    signOutFailed: (status: number) => `No se pudo cerrar la sesión (HTTP ${status}); cierre el navegador para terminarla.`,
  },
};

/** The shared parts of the pages: filters, pages of a list, a customer id that is not ours. */
export const uiMessages = {
  en: {
    show: 'Show',
    any: 'any',
    firstPage: 'First page',
    nextPage: 'Next page',
    type: 'Type',
    customer: 'Customer (our usr_… id)',
    fromDay: 'From day',
    toDay: 'To day',
    badUser: 'A customer id here is ours (usr_…): find it on the Customers page from your own id.',
  },
  es: {
    show: 'Mostrar',
    any: 'cualquiera',
    firstPage: 'Primera página',
    nextPage: 'Página siguiente',
    type: 'Tipo',
    customer: 'Cliente (nuestro id usr_…)',
    fromDay: 'Desde el día',
    toDay: 'Hasta el día',
    badUser: 'Aquí el id de cliente es el nuestro (usr_…): búsquelo en la página Clientes a partir de su propio id.',
  },
};
