// The editing pages' sessions on a cluster (editing.md §1): every instance knows a session, and
// signing out on one signs out on all, with the two instances writing through two nodes of the
// Galera cluster .ci/run starts (TEST_CLUSTER_NODES). Without it this file is skipped and says so.
import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { UsersService } from '../../../src/users/users.service';
import { createTestApp, TestApp } from '../../support/test-app';

const NODES = (process.env.TEST_CLUSTER_NODES ?? '').split(',').filter(Boolean);
jest.setTimeout(180_000);

const describeCluster = NODES.length >= 2 ? describe : describe.skip;
if (NODES.length < 2) console.warn('SKIPPED the editing sessions on a cluster: set TEST_CLUSTER_NODES to two nodes of a Galera cluster (see .ci/run)');

const ORIGIN = 'http://127.0.0.1:3000';
const FORM = { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };

describeCluster('editing sessions through two cluster nodes', () => {
  const database = `calendar_sessions_${process.pid}_${randomBytes(3).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  let password: string;

  const onNode1 = async (sql: string) => {
    const c = await createConnection({ uri: NODES[0] });
    await c.query(sql);
    await c.end();
  };
  const get = (t: TestApp, url: string, cookie: string) => t.app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers: { cookie } });
  const post = (t: TestApp, url: string, body: string, cookie = '') =>
    t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'POST', url, payload: body, headers: { ...FORM, ...(cookie ? { cookie } : {}) } });

  beforeAll(async () => {
    await onNode1(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const url = `${NODES[0].replace(/\/$/, '')}/${database}`;
    [a, b] = await Promise.all([createTestApp({}, { sharing: { databaseUrl: url } }), createTestApp({}, { sharing: { databaseUrl: url }, through: NODES[1] })]);
    const header = (await a.userHeader('cluster-editor', 'editor')).authorization;
    password = Buffer.from(header.slice('Basic '.length), 'base64').toString().split(':')[1];
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await onNode1(`DROP DATABASE IF EXISTS \`${database}\``);
  });

  async function signIn(t: TestApp): Promise<string> {
    const res = await post(t, '/manage/login', `login=cluster-editor&password=${encodeURIComponent(password)}`);
    expect(res.statusCode).toBe(303);
    return String(res.headers['set-cookie']).split(';')[0];
  }

  it('a session opened through one node is known through the other, and signing out there ends it on both', async () => {
    const cookie = await signIn(a);
    const onB = await get(b, '/manage/', cookie);
    expect(onB.statusCode).toBe(200);
    expect(onB.body).toContain('Signed in as');
    const token = /name="_csrf" value="([^"]+)"/.exec(onB.body)?.[1];
    expect(token).toBeDefined();

    const out = await post(b, '/manage/logout', `_csrf=${encodeURIComponent(token!)}`, cookie);
    expect(out.statusCode).toBe(303);
    const onA = await get(a, '/manage/', cookie);
    expect(onA.statusCode).toBe(303);
    expect(onA.headers.location).toContain('/manage/login');
  });

  it('a new password set through one instance ends the sessions the other instance sees', async () => {
    const cookie = await signIn(b);
    expect((await get(a, '/manage/', cookie)).statusCode).toBe(200);
    password = await a.app.get(UsersService).setPassword('cluster-editor');
    const after = await get(b, '/manage/', cookie);
    expect(after.statusCode).toBe(303);
  });
});
