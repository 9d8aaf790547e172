import { defineOperation } from '../operation.ts';
import { ZAuditChainVerification, ZAuditEvent, ZListAuditEventsQuery, ZVerifyAuditTrailQuery } from '../resources/audit.ts';

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

export const verifyAuditTrail = defineOperation({
  operationId: 'verifyAuditTrail',
  method: 'post',
  path: '/v1/audit-events/verify',
  tag: 'Audit',
  summary: 'Verify your audit trail',
  description:
    'Checks your trail now: each entry still hashes to its stored hash, links to the one before it, no sequence is ' +
    'missing, and the chain ends at its head. Entries recorded up to this request are included. By default it starts ' +
    'at the newest checkpoint an earlier check left (signed by us, every 1,000 entries and where that check ended) ' +
    'once that entry still has the hash it had, so it re-hashes only what was recorded since; `?from=start` ' +
    're-hashes every entry kept. A broken chain is answered `200` with `ok: false` and the first broken link. Only ' +
    'your own trail is ever checked. Concurrent calls share one check. It counts against the strict `batch` rate limit.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'batch',
  request: { query: ZVerifyAuditTrailQuery },
  success: { status: 200, description: 'The result of the check.', data: ZAuditChainVerification },
  errors: [],
});
