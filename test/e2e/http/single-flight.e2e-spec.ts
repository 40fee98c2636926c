import { DataSource } from 'typeorm';
import { ReadModel } from '../../../src/common/cache/read-model';
import { createEvent, makeUsers } from '../../support/api';
import { API, http } from '../../support/http';
import { captureQueries, LoggedQuery, sentByTimer } from '../../support/sql-log';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * Requests that miss the same cached answer together are answered by one computation:
 * the statements several identical concurrent requests send are those one sends alone.
 */
describe('identical requests missing the cache together', () => {
  let t: TestApp;
  let admin: string;
  let captured: LoggedQuery[];
  const CONCURRENT = 8;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin.authorization;
    for (let i = 1; i <= 3; i++) {
      await createEvent(t, admin, { title: `Flight ${i}`, start_date: `2033-04-0${i} 10:00`, end_date: `2033-04-0${i} 11:00` });
    }
    captured = captureQueries(t.app.get(DataSource));
  });
  afterAll(async () => t?.close());

  /**
   * A write: every cache is emptied, so the next read computes everything again. The read model
   * then reads the change log at once (which empties them once more, as the next poll would), so
   * that no poll moves the data's generation during the round, which would rightly start a new
   * computation.
   */
  const write = async () => {
    await createEvent(t, admin, { title: 'Flush', start_date: '2020-01-01 10:00', end_date: '2020-01-01 11:00' });
    await t.app.get(ReadModel).catchUp();
  };

  /**
   * The statements `count` identical anonymous GETs of `path`, sent together right after a write,
   * cause, and their answers. Cached answers are kept by the second: a round that straddles one
   * (two keys, so two computations by design) is run again.
   */
  async function together(path: string, count: number): Promise<{ sql: string[]; answers: { status: number; body: string }[] }> {
    for (;;) {
      await write();
      captured.length = 0;
      const second = Math.floor(Date.now() / 1000);
      const answers = await Promise.all(
        Array.from({ length: count }, async () => {
          const res = await http(t)
            .get(`${API}${path}`)
            .buffer(true)
            .parse((r, cb) => {
              let text = '';
              r.on('data', (chunk: Buffer) => (text += chunk.toString()));
              r.on('end', () => cb(null, text));
            });
          return { status: res.status, body: res.body as string };
        }),
      );
      if (Math.floor(Date.now() / 1000) !== second) continue;
      return { sql: captured.filter((q) => !sentByTimer(q)).map((q) => q.query), answers };
    }
  }

  it.each([
    ['a list page', '/events?start_date=2033-01-01&end_date=2033-12-31'],
    ['the iCalendar feed', '/events.ics?start_date=2033-01-01&end_date=2033-12-31'],
  ])('%s is computed once for them all, and each gets its answer', async (_name, path) => {
    const alone = await together(path, 1);
    expect(alone.answers[0].status).toBe(200);
    expect(alone.sql.length).toBeGreaterThan(0);
    const many = await together(path, CONCURRENT);
    expect(many.sql).toEqual(alone.sql);
    expect(many.answers).toEqual(Array.from({ length: CONCURRENT }, () => alone.answers[0]));
  });

  it('an error is handed to those waiting, and not kept', async () => {
    // A page past the end is an error computed from the data (the count), not the parameters.
    const path = '/events?start_date=2033-01-01&end_date=2033-12-31&page=9';
    const alone = await together(path, 1);
    expect(alone.answers[0].status).toBe(404);
    const many = await together(path, CONCURRENT);
    expect(many.sql).toEqual(alone.sql);
    expect(many.answers.map((a) => a.status)).toEqual(Array.from({ length: CONCURRENT }, () => 404));
    // Not kept: no answer is in the response cache (the write before the round emptied it).
    const responses = t.app
      .get(ReadModel)
      .stats()
      .find((c) => c.name === 'responses');
    expect(responses?.entries).toBe(0);
  });
});
