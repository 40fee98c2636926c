// What only tags do: they are flat, so `parent` means nothing to them — spec endpoints.md §6,
// resources.md §4. What tags share with categories is tested for both in terms.e2e-spec.ts.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createTag, listIdsOf, makeUsers, TermBody, uid } from '../../support/api';
import { idsOf } from '../../support/expect';

const TERM_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];

describe('tags: no hierarchy', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await makeUsers(t));
  }, 30_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(async () => t?.close());

  it('ignores a parent sent with a new tag', async () => {
    const res = await http(t, admin.authorization)
      .post(`${API}/tags`)
      .send({ name: `Orphan ${uid()}`, parent: 'foo' });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(TERM_KEYS);
    expect(res.body.urls).not.toHaveProperty('up');
  });

  it('ignores a parent parameter on the list', async () => {
    const tok = uid();
    const terms: TermBody[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) terms.push(await createTag(t, admin.authorization, { name: `${name} ${tok}` }));

    expect(await listIdsOf(t, 'tags', `search=${tok}&hide_empty=false&parent=foo`)).toEqual(idsOf(terms));
  });
});
