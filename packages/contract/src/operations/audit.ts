import { defineOperation } from '../operation.ts';
import { ZAuditEvent, ZListAuditEventsQuery } from '../resources/audit.ts';

export const listAuditEvents = defineOperation({
  operationId: 'listAuditEvents',
  method: 'get',
  path: '/v1/audit-events',
  tag: 'Audit',
  summary: 'List audit trail entries',
  description:
    'Your audit trail, oldest first: reads of credit and personal data, bureau pulls, consent given and withdrawn, ' +
    'tokens minted, users deleted or purged, webhook secrets rotated. Each entry carries the hash of the previous ' +
    'one, so a gap or an edit is detectable. Filter by `userId`, `type` and the time window `from` (inclusive) – ' +
    '`to` (exclusive). Only your own entries are ever listed.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  request: { query: ZListAuditEventsQuery },
  success: { status: 200, description: 'A page of audit entries.', data: ZAuditEvent, list: true },
  errors: [],
});
