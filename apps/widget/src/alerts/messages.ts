import type { TAlert } from '@credit/contract';

type Severity = TAlert['severity'];

interface AlertsMessages {
  heading: string;
  loading: string;
  unreadCount: (n: number) => string;
  allRead: string;
  severity: Record<Severity, string>;
  newBadge: string;
  read: string;
  markRead: string;
  markReadFor: (title: string) => string;
  markedRead: (title: string) => string;
  markFailed: string;
  emptyTitle: string;
  emptyBody: string;
  scoreChange: (previous: string, next: string, change: string) => string;
  inquiry: (source: string, date: string) => string;
  received: (when: string) => string;
}

export const messages: { en: AlertsMessages; es: AlertsMessages } = {
  en: {
    heading: 'Alerts',
    loading: 'Loading your alerts…',
    unreadCount: (n) => (n === 1 ? '1 unread alert' : `${n} unread alerts`),
    allRead: 'You have read all your alerts.',
    severity: { info: 'Info', warning: 'Warning', critical: 'Urgent' },
    newBadge: 'New',
    read: 'Read',
    markRead: 'Mark as read',
    markReadFor: (title) => `: ${title}`,
    markedRead: (title) => `Marked as read: ${title}`,
    markFailed: 'We could not mark this alert as read. Please try again.',
    emptyTitle: 'No alerts',
    emptyBody: 'We watch your credit report and will let you know here when something changes.',
    scoreChange: (previous, next, change) => `Score ${previous} → ${next} (${change})`,
    inquiry: (source, date) => `Inquiry by ${source} on ${date}`,
    received: (when) => `Received ${when}`,
  },
  es: {
    heading: 'Alertas',
    loading: 'Cargando sus alertas…',
    unreadCount: (n) => (n === 1 ? '1 alerta sin leer' : `${n} alertas sin leer`),
    allRead: 'Ha leído todas sus alertas.',
    severity: { info: 'Información', warning: 'Advertencia', critical: 'Urgente' },
    newBadge: 'Nueva',
    read: 'Leída',
    markRead: 'Marcar como leída',
    markReadFor: (title) => `: ${title}`,
    markedRead: (title) => `Marcada como leída: ${title}`,
    markFailed: 'No pudimos marcar esta alerta como leída. Inténtelo de nuevo.',
    emptyTitle: 'No hay alertas',
    emptyBody: 'Vigilamos su informe de crédito y le avisaremos aquí cuando algo cambie.',
    scoreChange: (previous, next, change) => `Puntaje ${previous} → ${next} (${change})`,
    inquiry: (source, date) => `Consulta de ${source} el ${date}`,
    received: (when) => `Recibida ${when}`,
  },
};
