import { describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { enrollment, startTestApp } from './helpers/harness.ts';
import { openTestDb } from './helpers/test-db.ts';

/**
 * Two apps in one process, over one database (as a test or a bench runs them): each holds its own in-memory services
 * on its context (the audit spool, the outbox listener of the long polls, the webhook agent, work under way), and
 * each serves with its own.
 */
describe('two apps in one process', () => {
  it('share no in-memory service, and each serves audited reads and long polls with its own', async () => {
    const db = await openTestDb();
    const one = await startTestApp({ db, keepDb: true });
    const two = await startTestApp({ db, keepDb: true });
    try {
      expect(one.ctx.services).not.toBe(two.ctx.services);
      const client = await one.createClient();
      const token = await one.token(client);
      const userId = await enrolActiveUser(one, token);

      // Each app's reads go through its own audit spool.
      for (const app of [one, two]) expect((await app.request('GET', `/v1/users/${userId}`, { token })).status).toBe(200);
      expect(one.ctx.services.auditSpool).toBeDefined();
      expect(two.ctx.services.auditSpool).toBeDefined();
      expect(one.ctx.services.auditSpool).not.toBe(two.ctx.services.auditSpool);
      const listed = await two.request('GET', '/v1/audit-events?limit=100', { token });
      const reads = listed.body.data.filter((e: { type: string }) => e.type === 'personal_data.read');
      expect(reads.length).toBeGreaterThanOrEqual(2);

      // A long poll held by the second app wakes on an event the first one commits, through the second's listener.
      const latest = (await two.request('GET', '/v1/events?sort=-recorded&limit=1', { token })).body.data[0]?.id as string;
      const held = two.request('GET', `/v1/events?after=${latest}&wait=10`, { token });
      await expect.poll(() => two.ctx.services.eventArrivals).toBeDefined();
      const started = performance.now();
      const enrolled = await one.request('POST', '/v1/users/enroll', { token, body: enrollment() });
      const answer = await held;
      expect(answer.body.data.map((e: { data: { userId: string } }) => e.data.userId)).toEqual([enrolled.body.data.userId]);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(one.ctx.services.eventArrivals).toBeUndefined();
    } finally {
      await one.close();
      await two.close();
      await db.close();
    }
  });
});
