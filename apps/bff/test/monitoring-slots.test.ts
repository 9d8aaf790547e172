import { describe, expect, it } from 'vitest';
import { MonitoringSlots } from '../src/modules/monitoring/slots.ts';

/** A task that runs until its test lets it end. */
const gate = () => {
  let open = () => {};
  const ended = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, ended };
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** modules/monitoring/slots.ts: a worker's batches share its pull slots and take turns to claim. */
describe('a worker’s monitoring slots', () => {
  it('claims the next batch only once every pull claimed before it has started, never beyond the slots', async () => {
    const slots = new MonitoringSlots(2);
    const events: string[] = [];
    let running = 0;
    let mostRunning = 0;
    const pulls = new Map<string, ReturnType<typeof gate>>();
    const batch = (name: string, users: string[]) =>
      slots.claimThen(
        async () => {
          events.push(`claim ${name}`);
          return users;
        },
        (claimed) =>
          Promise.all(
            claimed.map((user) =>
              slots.run(async () => {
                running += 1;
                mostRunning = Math.max(mostRunning, running);
                events.push(`start ${user}`);
                const pull = gate();
                pulls.set(user, pull);
                await pull.ended;
                running -= 1;
              }),
            ),
          ),
      );
    const first = batch('A', ['a1', 'a2', 'a3']);
    const second = batch('B', ['b1', 'b2']);
    await settle();
    // a3 waits for a slot, so B is not claimed yet: its users would wait behind a3.
    expect(events).toEqual(['claim A', 'start a1', 'start a2']);
    pulls.get('a1')?.open();
    await settle();
    // a3 has started while a2 still pulls: B is claimed now, and its first user waits for a slot.
    expect(events).toEqual(['claim A', 'start a1', 'start a2', 'start a3', 'claim B']);
    pulls.get('a2')?.open();
    await settle();
    expect(events.at(-1)).toBe('start b1');
    for (const user of ['a3', 'b1']) pulls.get(user)?.open();
    await settle();
    pulls.get('b2')?.open();
    await Promise.all([first, second]);
    expect(mostRunning).toBe(2);
    expect(events.filter((event) => event.startsWith('start'))).toHaveLength(5);
  });

  it('passes the turn on when a claim fails', async () => {
    const slots = new MonitoringSlots(2);
    const failed = slots.claimThen(
      () => Promise.reject(new Error('database down')),
      async () => 'never',
    );
    const next = slots.claimThen(
      async () => ['c1'],
      async (claimed) => claimed.join(),
    );
    await expect(failed).rejects.toThrow('database down');
    await expect(next).resolves.toBe('c1');
  });
});
