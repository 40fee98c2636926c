// Editing sessions on two instances of one database (a temporary SQLite file, or a database of
// TEST_DATABASE_URL's server), editing.md §1: a session opened on one is known on the other, and
// signing out on one signs out on both. In e2e-slow (jest.config.js) with the other tests of
// several instances; signing in on one instance is manage-sign-in.
import { twoInstances } from '../../support/instances';
import { formTokenOf, getPage, opens, postForm, signedIn } from '../../support/sign-in';

describe('sessions on two instances', () => {
  it('signing out on one instance signs out on the other', async () => {
    const { a, b, close } = await twoInstances({});
    try {
      const { cookie } = await signedIn(a, 'twice', 'editor');
      expect(await opens(b, cookie)).toBe(true);
      const token = formTokenOf((await getPage(b, '/manage/', cookie)).body);
      // A form of B's page is good on A: the token belongs to the session, not the instance.
      const res = await postForm(a, '/manage/logout', { _csrf: token }, { cookie });
      expect(res.statusCode).toBe(303);
      expect(await opens(b, cookie)).toBe(false);
      expect(await opens(a, cookie)).toBe(false);
    } finally {
      await close();
    }
  });
});
