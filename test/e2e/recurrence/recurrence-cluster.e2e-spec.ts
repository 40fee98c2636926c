// The horizon extended through two nodes of a Galera cluster at once (recurrence.md §3: "several
// instances extending at once create each occurrence once"). .ci/run starts the cluster and sets TEST_CLUSTER_NODES; without it this file is
// skipped and says so.
import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { HorizonExtender } from '../../../src/recurrence/horizon-extender';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const NODES = (process.env.TEST_CLUSTER_NODES ?? '').split(',').filter(Boolean);
// Every commit is certified by three nodes on one machine: slow, so generous time limits.
jest.setTimeout(180_000);

const describeCluster = NODES.length >= 2 ? describe : describe.skip;
if (NODES.length < 2) console.warn('SKIPPED the recurrence cluster test: set TEST_CLUSTER_NODES to two nodes of a Galera cluster (see .ci/run)');

const ON = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' };
/** `YYYY-MM-DD` of today + `days`, UTC. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describeCluster('series extended through two cluster nodes at once', () => {
  const database = `calendar_rec_cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
  const apps: TestApp[] = [];

  const onNode1 = async (sql: string) => {
    const c = await createConnection({ uri: NODES[0] });
    await c.query(sql);
    await c.end();
  };
  const url = () => `${NODES[0].replace(/\/$/, '')}/${database}`;

  beforeAll(async () => {
    await onNode1(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  });
  afterAll(async () => {
    for (const t of apps.reverse()) await t.close();
    await onNode1(`DROP DATABASE IF EXISTS \`${database}\``);
  });

  it('each occurrence is made once, whichever node commits first', async () => {
    const far = { ...ON, CALENDAR_RECURRENCE_HORIZON_DAYS: '40' };
    const near = await createTestApp({ ...ON, CALENDAR_RECURRENCE_HORIZON_DAYS: '10' }, { sharing: { databaseUrl: url() } });
    apps.push(near);
    // Started before the series exists, one through each node; then both tick at once.
    apps.push(await createTestApp(far, { sharing: { databaseUrl: url() } }), await createTestApp(far, { sharing: { databaseUrl: url() }, through: NODES[1] }));
    const admin = (await near.userHeader('cluster-admin', 'administrator')).authorization;
    const res = await http(near, admin)
      .post(`${API}/events`)
      .send({ title: 'Daily', start_date: `${day(1)} 10:00:00`, end_date: `${day(1)} 11:00:00`, timezone: 'UTC', recurrence: ['RRULE:FREQ=DAILY'] });
    expectStatus(res, 201);
    const before = (await http(near, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=1`)).body.total as number;
    const made = await Promise.all(apps.slice(1).map((t) => t.app.get(HorizonExtender).tick()));

    const reader = await createTestApp({ ...ON, CALENDAR_RECURRENCE_HORIZON_DAYS: '10' }, { sharing: { databaseUrl: url() }, through: NODES[1] });
    apps.push(reader);
    const listed = await http(reader, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=100`);
    expectStatus(listed, 200);
    const days = (listed.body.events as { start_date: string }[]).map((e) => e.start_date.slice(0, 10));
    expect(new Set(days).size).toBe(days.length);
    expect(days.length).toBeGreaterThanOrEqual(38);
    expect(made[0] + made[1]).toBe(listed.body.total - before);
  });
});
