import { DataSource } from 'typeorm';
import { memoryDataSource } from '../../database/testing/memory-data-source';
import { ENTITIES } from '../../schema';
import { DataVersion, SHARED_VERSION_POLL_MS } from './data-version.service';

/** Another process's view of the same database: its own DataVersion, polling the change log. */
describe('DataVersion across processes', () => {
  let ds: DataSource;
  let other: DataVersion;

  beforeAll(async () => {
    ds = await memoryDataSource(ENTITIES);
    other = new DataVersion(ds);
    await other.current();
  });
  afterAll(async () => ds?.destroy());

  const insertChange = (seq: number) => ds.query("INSERT INTO changes (seq, type, item_id, changed_utc) VALUES (?, 'event', 1, '2030-01-01 00:00:00')", [seq]);
  /** The version after the next poll (a poll happens at most every SHARED_VERSION_POLL_MS). */
  const afterPoll = async () => {
    await new Promise((resolve) => setTimeout(resolve, SHARED_VERSION_POLL_MS + 20));
    return other.current();
  };

  it('moves when a change row is committed, and not otherwise', async () => {
    const start = await afterPoll();
    expect(await afterPoll()).toBe(start);
    await insertChange(5);
    expect(await afterPoll()).not.toBe(start);
  });

  it('moves when a change with a lower seq commits after a higher one was seen', async () => {
    await insertChange(20);
    const seen = await afterPoll();
    // seq 12 was handed out before 20 but its transaction commits only now: the highest seq stays 20.
    await insertChange(12);
    expect(await afterPoll()).not.toBe(seen);
  });

  it("this process's own commits move it at once, without waiting for a poll", async () => {
    const mine = new DataVersion(ds);
    await mine.current();
    const before = await mine.current();
    mine.committed();
    expect(await mine.current()).not.toBe(before);
  });
});
