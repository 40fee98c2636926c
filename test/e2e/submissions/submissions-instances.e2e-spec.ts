// The submission form on two instances of one database (editing.md §4, docs/security.md): a form
// one instance gave is taken by the other (the stamp's key is in the database, the token's
// secret in the browser's cookie), and the hourly limits are counted once for both through
// Redis, as the failed sign-ins are. In e2e-slow with the other tests of several instances.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { redisForTests, TEST_REDIS_URL } from '../../support/redis';
import { openForm, sendForm, submission } from '../../support/submissions';
import { EXTENSIONS_OFF } from '../../support/test-app';

describe('submissions on two instances', () => {
  it('a form from one instance is taken by the other, and both count one hourly limit in Redis', async () => {
    if (!(await redisForTests('the submissions limit shared through Redis'))) return;
    const prefix = `calendar-test-${randomBytes(4).toString('hex')}:`;
    const { a, b, close } = await twoInstances({
      ...EXTENSIONS_OFF,
      CALENDAR_SUBMISSIONS: 'anyone',
      CALENDAR_SUBMISSIONS_PER_ADDRESS: '2',
      REDIS_URL: TEST_REDIS_URL,
      CALENDAR_REDIS_PREFIX: prefix,
    });
    const client = new Redis(TEST_REDIS_URL);
    try {
      const admin = await a.userHeader('root', 'administrator');
      const from = { remoteAddress: '203.0.113.50' };
      const fromA = await openForm(a);
      // A's form, sent to B: B checks A's stamp with the key both read from the database.
      expect((await sendForm(b, fromA, submission({ title: 'Across one' }), from)).statusCode).toBe(303);
      expect((await sendForm(a, fromA, submission({ title: 'Across two' }), from)).statusCode).toBe(303);
      // The address has used its two, counted in Redis: refused on either instance.
      for (const t of [a, b]) expect((await sendForm(t, fromA, submission({ title: 'Across three' }), from)).statusCode).toBe(429);
      expect(await client.keys(`${prefix}submissions-address*`)).not.toEqual([]);
      const pending = await http(a, admin.authorization).get(`${API}/events?status=pending&search=Across`);
      expect((pending.body.events as { title: string }[]).map((e) => e.title).sort()).toEqual(['Across one', 'Across two']);
    } finally {
      await close();
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await client.quit();
    }
  });
});
