// Lists filtered by terms and organizers walk the link tables' listing index:
// one term counts and pages along its range, several terms (a category with its descendants,
// several organizers) merge the first offset+limit of each range. Their totals and every page
// must be what the list order says (spec endpoints.md §4.1.4): the whole list, unfiltered, is
// read once, and each filter is checked against it, page by page, with ties in start date and
// publication date, drafts, hidden events, events in two of the terms, and filters the link
// table cannot answer alone (featured, search, a second term filter).
import { EventListRepository } from '../../../src/events/event-list.repository';
import { createCategory, createEvent, createOrganizer, createTag, EventBody, uid } from '../../support/api';
import { listEvents } from '../../support/events';
import { expectStatus } from '../../support/expect';
import { createTestApp, TestApp } from '../../support/test-app';

const WINDOW = 'start_date=2032-01-01&end_date=2032-12-31';

describe('lists driven by the link tables answer as the list order says', () => {
  let t: TestApp;
  let admin: string;
  let all: EventBody[];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('links-admin', 'administrator')).authorization;
    const parent = await createCategory(t, admin, { name: uid('parent') });
    const one = await createCategory(t, admin, { name: uid('one'), parent: parent.id });
    const two = await createCategory(t, admin, { name: uid('two'), parent: parent.id });
    const tag = await createTag(t, admin, { name: uid('tag') });
    const ann = await createOrganizer(t, admin, { organizer: uid('ann') });
    const bob = await createOrganizer(t, admin, { organizer: uid('bob') });
    Object.assign(ids, { parent: parent.id, one: one.id, two: two.id, tag: tag.id, ann: ann.id, bob: bob.id });
    const categorySets = [[one.id], [two.id], [one.id, two.id], [parent.id], [parent.id, one.id], []];
    for (let i = 0; i < 18; i++) {
      // Three events share each start (ties broken by publication date, then id).
      const day = String(1 + Math.floor(i / 3)).padStart(2, '0');
      await createEvent(t, admin, {
        title: i % 4 === 0 ? `Concert ${i}` : `Talk ${i}`,
        start_date: `2032-03-${day} 10:00:00`,
        end_date: `2032-03-${day} 12:00:00`,
        date_utc: `2026-01-0${1 + (i % 3 === 1 ? 0 : i % 5)} 00:00:00`,
        status: i % 7 === 3 ? 'draft' : 'publish',
        hide_from_listings: i === 8,
        featured: i % 3 === 0,
        categories: categorySets[i % categorySets.length],
        tags: i % 2 === 0 ? [tag.id] : [],
        organizer: i % 3 === 0 ? [ann.id] : i % 3 === 1 ? [bob.id] : [ann.id, bob.id],
      });
    }
    const res = await listEvents(t, `${WINDOW}&per_page=50`);
    expectStatus(res, 200);
    all = res.body.events as EventBody[];
    expect(all.length).toBe(14); // three drafts and one hidden event are not listed
  });
  afterAll(async () => t?.close());

  const has = (list: { id: number }[], ...wanted: number[]) => list.some((x) => wanted.includes(x.id));
  const filters: [string, () => string, (e: EventBody) => boolean][] = [
    ['one category without children', () => `categories=${ids.one}`, (e) => has(e.categories, ids.one)],
    ['a category with its children (several ranges merged)', () => `categories=${ids.parent}`, (e) => has(e.categories, ids.parent, ids.one, ids.two)],
    ['two categories', () => `categories=${ids.one},${ids.two}`, (e) => has(e.categories, ids.one, ids.two)],
    ['a tag', () => `tags=${ids.tag}`, (e) => has(e.tags, ids.tag)],
    ['one organizer', () => `organizer=${ids.ann}`, (e) => has(e.organizer, ids.ann)],
    ['two organizers', () => `organizer=${ids.ann},${ids.bob}`, (e) => has(e.organizer, ids.ann, ids.bob)],
    ['categories and a tag', () => `categories=${ids.parent}&tags=${ids.tag}`, (e) => has(e.categories, ids.parent, ids.one, ids.two) && has(e.tags, ids.tag)],
    ['categories and featured', () => `categories=${ids.parent}&featured=true`, (e) => has(e.categories, ids.parent, ids.one, ids.two) && e.featured === true],
    [
      'categories and a search',
      () => `categories=${ids.parent}&search=concert`,
      (e) => has(e.categories, ids.parent, ids.one, ids.two) && e.title.includes('Concert'),
    ],
    ['an organizer and a category', () => `organizer=${ids.bob}&categories=${ids.two}`, (e) => has(e.organizer, ids.bob) && has(e.categories, ids.two)],
  ];

  it.each(filters)('%s: the total and every page of two', async (_name, query, matches) => {
    const expected = all.filter(matches).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    const pages = Math.ceil(expected.length / 2);
    const seen: number[] = [];
    for (let page = 1; page <= pages; page++) {
      const res = await listEvents(t, `${WINDOW}&${query()}&per_page=2&page=${page}`);
      expectStatus(res, 200);
      expect(res.body.total).toBe(expected.length);
      seen.push(...(res.body.events as EventBody[]).map((e) => e.id));
    }
    expect(seen).toEqual(expected);
  });

  // The list asks for ids in blocks of PAGE_ID_BLOCK from offset 0, so the pages above never
  // start a merge past its first rows: the repository is asked at every offset here.
  it.each([
    [
      'a category with its children',
      () => ({ categoryIds: [ids.parent, ids.one, ids.two] }),
      (e: EventBody) => has(e.categories, ids.parent, ids.one, ids.two),
    ],
    ['two organizers', () => ({ organizerIds: [ids.ann, ids.bob] }), (e: EventBody) => has(e.organizer, ids.ann, ids.bob)],
  ])('%s: the ids at every offset are that slice of the list', async (_name, filter, matches) => {
    const expected = all.filter(matches).map((e) => e.id);
    const repository = t.app.get(EventListRepository);
    const filters = { visibility: { statuses: ['publish'] }, startFrom: '2032-01-01 00:00:00', startTo: '2032-12-31 23:59:59', ...filter() };
    expect(await repository.countMatching(filters)).toBe(expected.length);
    for (let offset = 0; offset < expected.length; offset++) {
      expect(await repository.pageIds(filters, offset, 3)).toEqual(expected.slice(offset, offset + 3));
    }
  });
});
