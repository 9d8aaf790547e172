/**
 * The audit module's public face (other modules reach it only here): record an entry, name the actor of a caller,
 * verify a chain, export a range, prune under a checkpoint.
 */

export { auditedBureau } from './audited-bureau.ts';
export { auditedClients } from './chain-repo.ts';
export { chainSpooledEntries } from './chainer.ts';
export type { AuditActor, AuditEventInput } from './entry.ts';
export { exportTrail } from './export.ts';
export { operationAudit } from './operation-audit.ts';
export { pruneAuditTrails } from './prune.ts';
export { AuditCollector, actorOf, recordAudit } from './record.ts';
export { recordUserPurges } from './user-purges.ts';
export { type BrokenLink, type VerifyFrom, type VerifyResult, verifyChain, verifyTrail } from './verify.ts';
