import { DataSource } from 'typeorm';
import { memoryDataSource } from '../../database/testing/memory-data-source';
import { SCHEMA } from '../../schema';
import { ChangeLogVersion } from '../../database/change-log-version';
import { DataVersion, SHARED_VERSION_POLL_MS } from './data-version.service';

/** Another process's view of the same database: its own DataVersion, polling the change log. */
describe('DataVersion across processes', () => {
  let ds: DataSource;
  let other: DataVersion;

  beforeAll(async () => {
    ds = await memoryDataSource(SCHEMA);
    other = new DataVersion(new ChangeLogVersion(ds));
    await other.current();
  });
  afterAll(async () => ds?.destroy());

  /** What another process's write does to the log's counter (database/change-log.ts). */
  const commitElsewhere = () => ds.query("UPDATE change_counter SET seq = seq + 1 WHERE name = 'log'");
  /** The version after the next poll (a poll happens at most every SHARED_VERSION_POLL_MS). */
  const afterPoll = async () => {
    await new Promise((resolve) => setTimeout(resolve, SHARED_VERSION_POLL_MS + 20));
    return other.current();
  };

  it('moves when another process commits a write, and not otherwise', async () => {
    const start = await afterPoll();
    expect(await afterPoll()).toBe(start);
    await commitElsewhere();
    const moved = await afterPoll();
    expect(moved).not.toBe(start);
    await commitElsewhere();
    expect(await afterPoll()).not.toBe(moved);
  });

  it("this process's own commits move it at once, without waiting for a poll", async () => {
    const mine = new DataVersion(new ChangeLogVersion(ds));
    await mine.current();
    const before = await mine.current();
    mine.committed();
    expect(await mine.current()).not.toBe(before);
  });
});
