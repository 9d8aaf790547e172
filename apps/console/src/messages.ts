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
