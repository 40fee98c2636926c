// Category and tag names that contain separators (spec endpoints.md §4.5): an
// item of a JSON or form array is one name, never split; a comma-separated string is split unless
// the whole string is the name of an existing term. The event list's `categories`/`tags` filters
// read their values by the same rule (docs/compatibility.md).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, createTerm, makeUsers, uid, updateEvent } from '../../support/api';
import { expectInvalidParams, expectStatus, idsOf, sortedIds } from '../../support/expect';

describe('terms named with separators, in event writes and in the list filters', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin;
  });
  afterAll(async () => {
    await t?.close();
  });

  const allIds = async (route: 'categories' | 'tags') => {
    const res = await http(t).get(`${API}/${route}?hide_empty=false&per_page=50`);
    expectStatus(res, 200);
    return sortedIds(idsOf(res.body[route]));
  };
  const window = 'start_date=2030-01-01&end_date=2030-12-31';
  const listed = async (query: string) => {
    const res = await http(t).get(`${API}/events?${window}&${query}`);
    expectStatus(res, 200);
    return idsOf(res.body.events);
  };

  describe('event writes (§4.5)', () => {
    it('links an existing category named with a comma and a semicolon, given as an array item, without creating any', async () => {
      const tok = uid();
      const soul = await createTerm(t, admin.authorization, 'categories', { name: `Jazz ${tok}, Blues; Soul` });
      const before = await allIds('categories');

      const ev = await createEvent(t, admin.authorization, { categories: [`Jazz ${tok}, Blues; Soul`] });

      expect(idsOf(ev.categories)).toEqual([soul.id]);
      expect(await allIds('categories')).toEqual(before);
    });

    it('links it given as the whole string, in a JSON body and in a form body, matching the name case-insensitively', async () => {
      const tok = uid();
      const soul = await createTerm(t, admin.authorization, 'categories', { name: `Jazz ${tok}, Blues; Soul` });
      const before = await allIds('categories');

      const json = await createEvent(t, admin.authorization, { categories: ` Jazz ${tok}, Blues; Soul ` });
      const lower = await createEvent(t, admin.authorization, { categories: `jazz ${tok}, blues; soul` });
      const form = await http(t, admin.authorization)
        .post(`${API}/events`)
        .type('form')
        .send({ title: `Form ${tok}`, start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00', categories: `Jazz ${tok}, Blues; Soul` });
      const formArray = await http(t, admin.authorization)
        .post(`${API}/events`)
        .type('form')
        .send(`title=Array+${tok}&start_date=2030-06-01+10:00&end_date=2030-06-01+12:00&categories[]=${encodeURIComponent(`Jazz ${tok}, Blues; Soul`)}`);

      expect(idsOf(json.categories)).toEqual([soul.id]);
      expect(idsOf(lower.categories)).toEqual([soul.id]);
      expectStatus(form, 201);
      expect(idsOf(form.body.categories)).toEqual([soul.id]);
      expectStatus(formArray, 201);
      expect(idsOf(formArray.body.categories)).toEqual([soul.id]);
      expect(await allIds('categories')).toEqual(before);
    });

    it('keeps it on an update that gives the whole string', async () => {
      const tok = uid();
      const soul = await createTerm(t, admin.authorization, 'categories', { name: `Jazz ${tok}, Blues; Soul` });
      const ev = await createEvent(t, admin.authorization, {});

      const updated = await updateEvent(t, admin.authorization, ev.id, { categories: `Jazz ${tok}, Blues; Soul` });

      expect(idsOf(updated.categories)).toEqual([soul.id]);
    });

    it('still splits a comma-separated string of two existing names', async () => {
      const tok = uid();
      const rock = await createTerm(t, admin.authorization, 'categories', { name: `Rock ${tok}` });
      const pop = await createTerm(t, admin.authorization, 'categories', { name: `Pop ${tok}` });
      const before = await allIds('categories');

      const ev = await createEvent(t, admin.authorization, { categories: `Rock ${tok}, Pop ${tok}` });

      expect(sortedIds(idsOf(ev.categories))).toEqual(sortedIds([rock.id, pop.id]));
      expect(await allIds('categories')).toEqual(before);
    });

    it('creates one term from an unknown array item with a comma, and splits an unknown comma string', async () => {
      const tok = uid();

      const whole = await createEvent(t, admin.authorization, { tags: [`folk ${tok}, country`] });
      const split = await createEvent(t, admin.authorization, { tags: `alpha ${tok}, beta ${tok}` });

      expect(whole.tags.map((tag) => tag.name)).toEqual([`folk ${tok}, country`]);
      expect(split.tags.map((tag) => tag.name).sort()).toEqual([`alpha ${tok}`, `beta ${tok}`]);
    });

    it('applies the same rule to tags', async () => {
      const tok = uid();
      const tag = await createTerm(t, admin.authorization, 'tags', { name: `late, loud ${tok}` });
      const before = await allIds('tags');

      const ev = await createEvent(t, admin.authorization, { tags: `late, loud ${tok}` });

      expect(idsOf(ev.tags)).toEqual([tag.id]);
      expect(await allIds('tags')).toEqual(before);
    });
  });

  describe('the event list filters (§4.1)', () => {
    it('finds the event by the whole name, as a string or an array item, and by its slug', async () => {
      const tok = uid();
      const soul = await createTerm(t, admin.authorization, 'categories', { name: `Jazz ${tok}, Blues; Soul` });
      const ev = await createEvent(t, admin.authorization, { categories: [soul.id] });
      const name = encodeURIComponent(`Jazz ${tok}, Blues; Soul`);

      expect(await listed(`categories=${name}`)).toEqual([ev.id]);
      expect(await listed(`categories[]=${name}`)).toEqual([ev.id]);
      expect(await listed(`categories=${encodeURIComponent(soul.slug)}`)).toEqual([ev.id]);
    });

    it('still splits a comma list of two names, and refuses an array item that names no term', async () => {
      const tok = uid();
      const rock = await createTerm(t, admin.authorization, 'tags', { name: `Rock ${tok}` });
      const pop = await createTerm(t, admin.authorization, 'tags', { name: `Pop ${tok}` });
      const one = await createEvent(t, admin.authorization, { tags: [rock.id] });
      const two = await createEvent(t, admin.authorization, { tags: [pop.id] });

      expect(sortedIds(await listed(`tags=${encodeURIComponent(`Rock ${tok},Pop ${tok}`)}`))).toEqual(sortedIds([one.id, two.id]));
      expectInvalidParams(await http(t).get(`${API}/events?${window}&tags[]=${encodeURIComponent(`Rock ${tok},Pop ${tok}`)}`), 'tags');
    });
  });
});
