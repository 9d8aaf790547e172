/**
 * The Audit trail page's strings: the chain check and the list. Entry types and actor kinds (`staff: emp-4821`) stay as
 * the API names them, as an export or a query of the trail reads them.
 */
export const auditMessages = {
  en: {
    title: 'Audit trail',
    lede: 'Every read of your customers’ data, every pull, token and change, and every console action under the staff id that made it.',
    verifyHeading: 'Is the trail intact?',
    verifyIntro:
      'Each entry carries the hash of the one before it. A check re-hashes the entries since the last check (or, in full, ' +
      'every entry kept), so an edit or a gap shows.',
    verify: 'Verify the chain',
    verifyAll: 'Verify every entry',
    holds: (checked: string, from: number, last: number) =>
      `The chain holds: ${checked} entries re-hashed after entry ${from}, up to entry ${last}.`,
    broken: (seq: number, why: string) =>
      `The chain is broken at entry ${seq}: ${why}. Keep this page and tell your administrator and ours at once.`,
    breaks: {
      entry_altered: 'an entry no longer matches its hash: it was changed after it was written',
      previous_hash_mismatch: 'an entry does not link to the one before it',
      missing_entry: 'an entry is missing',
      head_mismatch: 'the trail does not end where its head says',
      checkpoint_signature: 'a retention checkpoint is not signed by us',
    },
    unknownBreak: 'unknown reason',
    filterLabel: 'Filter the audit trail',
    loading: 'the audit trail',
    pagesLabel: 'Audit trail pages',
    none: 'No entry matches these filters: widen the days or choose another type.',
    caption: 'Audit entries, oldest first',
    entry: 'Entry',
    when: 'When',
    who: 'Who',
    customer: 'Customer',
    what: 'What',
  },
  es: {
    title: 'Registro de auditoría',
    lede: 'Cada lectura de los datos de sus clientes, cada consulta al buró, token y cambio, y cada acción en la consola, con el id del empleado que la hizo.',
    verifyHeading: '¿Está intacto el registro?',
    verifyIntro:
      'Cada entrada lleva el hash de la anterior. Una verificación vuelve a calcular el hash de las entradas desde la ' +
      'última verificación (o, completa, de todas las entradas conservadas), así se nota una modificación o un hueco.',
    verify: 'Verificar la cadena',
    verifyAll: 'Verificar todas las entradas',
    holds: (checked: string, from: number, last: number) =>
      `La cadena está intacta: ${checked} entradas verificadas después de la entrada ${from}, hasta la entrada ${last}.`,
    broken: (seq: number, why: string) =>
      `La cadena está rota en la entrada ${seq}: ${why}. Conserve esta página y avise de inmediato a su administrador y al nuestro.`,
    breaks: {
      entry_altered: 'una entrada ya no coincide con su hash: se modificó después de escribirse',
      previous_hash_mismatch: 'una entrada no enlaza con la anterior',
      missing_entry: 'falta una entrada',
      head_mismatch: 'el registro no termina donde indica su cabeza',
      checkpoint_signature: 'un punto de control de conservación no lleva nuestra firma',
    },
    unknownBreak: 'motivo desconocido',
    filterLabel: 'Filtrar el registro de auditoría',
    loading: 'el registro de auditoría',
    pagesLabel: 'Páginas del registro de auditoría',
    none: 'Ninguna entrada coincide con estos filtros: amplíe los días o elija otro tipo.',
    caption: 'Entradas del registro, de la más antigua a la más reciente',
    entry: 'Entrada',
    when: 'Cuándo',
    who: 'Quién',
    customer: 'Cliente',
    what: 'Qué',
  },
};
