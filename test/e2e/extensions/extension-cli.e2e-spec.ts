// The capacity extension's command through the command line (`npm run cli`, scripts/start.js,
// which builds dist/ first when it is stale): listed by `cli help`, run while the extension is
// on, refused while it is off or its setting is bad. In e2e-slow (jest.config.js), with the
// other tests of CLI processes; the rest of the install is extension-install.
import { cliDatabase, runCli } from '../../support/cli';

const BY_PATH = { CALENDAR_EXTENSIONS: 'extensions/capacity' };

describe("the extension's command, through the command line", () => {
  let database: Awaited<ReturnType<typeof cliDatabase>>;
  beforeAll(async () => {
    database = await cliDatabase();
  });
  afterAll(async () => database?.remove());

  it('`cli help` lists it; it runs while the extension is on and is refused while it is off', async () => {
    const help = await runCli(['help'], BY_PATH);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}capacity:report +every event with a capacity/m);

    const on = await runCli(['capacity:report'], { ...BY_PATH, DATABASE_URL: database.url, CALENDAR_CAPACITY: 'on' });
    expect(on).toMatchObject({ code: 0, stdout: '0 events, 0 places\n' });
    const off = await runCli(['capacity:report'], { ...BY_PATH, DATABASE_URL: database.url, CALENDAR_CAPACITY: 'off' });
    expect(off).toMatchObject({ code: 1, stderr: 'capacity:report: the capacity feature is switched off (CALENDAR_CAPACITY).\n' });
    const bad = await runCli(['capacity:report'], { ...BY_PATH, DATABASE_URL: database.url, CALENDAR_CAPACITY: 'maybe' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('CALENDAR_CAPACITY must be on or off (got "maybe")');
  }, 240_000);
});
