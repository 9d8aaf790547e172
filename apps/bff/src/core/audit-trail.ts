import type { Caller } from './principal.ts';

/**
 * What the HTTP layer asks of the audit trail (implemented by modules/audit, reached through AppContext): record a
 * caller's successful call of an operation that reads credit or personal data, durably, before it is answered.
 */
export interface AuditTrail {
  /** Resolves at once for an operation that reads nothing to audit; else once the entry is committed. */
  recordOperation(operationId: string, caller: Caller, requestId: string, params: unknown): Promise<void>;
  /** A write spooled its own entry in its transaction (recordAudit): chain it within the chaining interval. */
  spooledByWrite(): void;
}
