import type { BureauTrigger, CreditSubject, TriggerFeed, TriggerPage } from '../provider.ts';
import { sandboxFileChanges } from './file-changes.ts';

interface MonitoredFile {
  subject: CreditSubject;
  /** Changes up to this instant's day are in the log. */
  scannedUntil: Date;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The trigger feed of `pnpm bureau`: files enter monitoring with a pull that asks for it, and each day's changes (the
 * sandbox's monthly events, on their reporting days) are appended to one log the platform reads with a cursor (the
 * position of the last trigger read). Held in memory: a restarted bureau learns its files again from the next pulls.
 */
export class SandboxTriggerLog implements TriggerFeed {
  readonly #monitored = new Map<string, MonitoredFile>();
  readonly #log: BureauTrigger[] = [];
  readonly #now: () => Date;

  constructor(now: () => Date) {
    this.#now = now;
  }

  /** Starts (or keeps) monitoring the file; changes are reported from the day after the pull's as-of day. */
  monitor(subject: CreditSubject, asOf: Date): void {
    const known = this.#monitored.get(subject.userId);
    this.#monitored.set(subject.userId, { subject, scannedUntil: known?.scannedUntil ?? asOf });
  }

  async stop(references: string[]): Promise<void> {
    for (const reference of references) this.#monitored.delete(reference);
  }

  /** Appends a change of the operator's choosing (a rehearsal, a test): read like any other, after what is logged. */
  inject(trigger: BureauTrigger): void {
    this.#scan();
    this.#log.push(trigger);
  }

  get monitoredCount(): number {
    return this.#monitored.size;
  }

  async read(after: string | null, limit: number): Promise<TriggerPage> {
    this.#scan();
    const start = after === null ? 0 : Number(after);
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError('after is not a cursor of this feed');
    const triggers = this.#log.slice(start, start + limit);
    return { triggers, cursor: triggers.length === 0 ? after : String(start + triggers.length) };
  }

  /** A file is replayed at most once a day: changes are dated by day, so a later scan the same day finds nothing new. */
  #scan(): void {
    const now = this.#now();
    const today = dayOf(now);
    const found: BureauTrigger[] = [];
    for (const [reference, file] of this.#monitored) {
      if (dayOf(file.scannedUntil) >= today) continue;
      for (const change of sandboxFileChanges(file.subject, file.scannedUntil, now)) {
        found.push({ id: `trg_${reference}_${change.on}`, reference, types: change.types, occurredOn: change.on });
      }
      file.scannedUntil = now;
    }
    found.sort((a, b) => a.occurredOn.localeCompare(b.occurredOn) || a.reference.localeCompare(b.reference));
    this.#log.push(...found);
  }
}
