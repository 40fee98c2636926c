import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import { ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import type { NameList } from '../common/params';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { UnitOfWork } from '../database/unit-of-work';
import { newTestService } from '../../test/support/new-test-service';
import { EventTerms } from './event-terms';
import type { TermEntity, Taxonomy } from './entities/term.entity';
import { TermsRepository } from './terms.repository';
import { TermsService } from './terms.service';
import { CATEGORY_LIST_HOOKS, TermListHooks } from './term-list-hooks';
import { listedHooks } from '../../test/support/hooks';
import { TermWrites } from './term-writes';

// Categories and tags without a database: a fake repository that keeps terms in
// an array, to see how event writes name terms (spec endpoints.md §4.5) and when creates and
// renames are refused (§6.2, §6.3).

const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const contributor: Actor = { id: 3, login: 'co', role: 'contributor' };

const term = (id: number, name: string, slug: string, over: Partial<TermEntity> = {}): TermEntity =>
  ({ id, taxonomy: 'category', name, slug, description: '', parentId: 0, count: 0, ...over }) as TermEntity;

function serviceOn(stored: TermEntity[]) {
  const terms = [...stored];
  let nextId = 100;
  const of = (taxonomy: Taxonomy) => terms.filter((t) => t.taxonomy === taxonomy);
  const repo = {
    existingIds: jest.fn(
      async (taxonomy: Taxonomy, ids: number[]) =>
        new Set(
          of(taxonomy)
            .filter((t) => ids.includes(t.id))
            .map((t) => t.id),
        ),
    ),
    findBySlugsOrNames: jest.fn(async (taxonomy: Taxonomy, slugs: string[], names: string[]) => {
      const lower = names.map((n) => n.toLowerCase());
      return of(taxonomy).filter((t) => slugs.includes(t.slug) || lower.includes(t.name.toLowerCase()));
    }),
    findSiblingByName: jest.fn(
      async (taxonomy: Taxonomy, parentId: number, name: string, exceptId?: number) =>
        of(taxonomy).find((t) => t.parentId === parentId && t.id !== exceptId && t.name.toLowerCase() === name.toLowerCase()) ?? null,
    ),
    slugTaken: jest.fn(async (taxonomy: Taxonomy, slug: string, exceptId?: number) => of(taxonomy).some((t) => t.slug === slug && t.id !== exceptId)),
    slugsLike: jest.fn(
      async (taxonomy: Taxonomy, base: string) =>
        new Set(
          of(taxonomy)
            .filter((t) => t.slug.startsWith(base))
            .map((t) => t.slug),
        ),
    ),
    save: jest.fn(async (t: TermEntity) => {
      const saved = { ...t, id: t.id ?? nextId++ } as TermEntity;
      const at = terms.findIndex((x) => x.id === saved.id);
      if (at >= 0) terms[at] = saved;
      else terms.push(saved);
      return saved;
    }),
    findById: jest.fn(async (taxonomy: Taxonomy, id: number) => of(taxonomy).find((t) => t.id === id) ?? null),
    findForUpdate: jest.fn(async (taxonomy: Taxonomy, id: number) => of(taxonomy).find((t) => t.id === id) ?? null),
    ancestors: jest.fn(async () => new Map<number, TermEntity>()),
    isSlugConflict: jest.fn(() => false),
    isNameConflict: jest.fn(() => false),
  };
  const readModel = { cache: jest.fn(() => ({})) };
  const config = { baseUrl: 'http://calendar.test', timezone: 'UTC' };
  const writes: unknown[] = [];
  // The terms' own services are real, over the fake repository; posts are faked automatically.
  const termWrites = newTestService(TermWrites, [{ provide: TermsRepository, useValue: repo }]).sut;
  const eventTerms = newTestService(EventTerms, [
    { provide: TermsRepository, useValue: repo },
    { provide: TermWrites, useValue: termWrites },
    { provide: AppConfig, useValue: config },
  ]).sut;
  const service = newTestService(TermsService, [
    { provide: TermsRepository, useValue: repo },
    { provide: AppConfig, useValue: config },
    { provide: ReadModel, useValue: readModel },
    { provide: UnitOfWork, useValue: fakeUnitOfWork(writes as never[]) },
    { provide: TermListHooks, useValue: new TermListHooks(listedHooks(CATEGORY_LIST_HOOKS)) },
    { provide: TermWrites, useValue: termWrites },
    { provide: EventTerms, useValue: eventTerms },
  ]).sut;
  return { service, repo, terms, writes };
}

/** An event write's name resolution, inside the transaction the (fake) unit of work hands out. */
const resolve = (service: TermsService, taxonomy: Taxonomy, list: NameList) =>
  fakeUnitOfWork().run((tx) => service.resolveForEventWrite(tx, taxonomy, list, admin));

describe('TermsService.resolveForEventWrite (spec endpoints.md §4.5)', () => {
  const jazz = term(1, 'Jazz', 'jazz');
  const blues = term(2, 'Blues', 'blues');

  it('never splits an array item: "Jazz, Blues" given as one item is one new term', async () => {
    const { service, repo } = serviceOn([jazz, blues]);
    const ids = await resolve(service, 'category', { items: ['Jazz, Blues'] });
    expect(ids).toHaveLength(1);
    expect(ids).not.toContain(1);
    expect(repo.save).toHaveBeenCalledTimes(1);
    expect(repo.save.mock.calls[0][0]).toMatchObject({ name: 'Jazz, Blues', taxonomy: 'category', parentId: 0 });
  });

  it('a comma string names the one term whose name is the whole string, else its parts', async () => {
    const whole = term(3, 'Jazz, Blues', 'jazz-blues');
    const named = serviceOn([jazz, blues, whole]);
    await expect(resolve(named.service, 'category', { items: ['Jazz', 'Blues'], whole: 'Jazz, Blues' })).resolves.toEqual([3]);

    const parts = serviceOn([jazz, blues]);
    await expect(resolve(parts.service, 'category', { items: ['Jazz', 'Blues'], whole: 'Jazz, Blues' })).resolves.toEqual([1, 2]);
    expect(parts.repo.save).not.toHaveBeenCalled();
  });

  it('numeric items are ids: known ones kept, unknown ones skipped, never created as names', async () => {
    const { service, repo } = serviceOn([jazz, blues]);
    await expect(resolve(service, 'category', { items: ['2', '999'] })).resolves.toEqual([2]);
    expect(repo.save).not.toHaveBeenCalled();
  });

  it('names match a slug or a name case-insensitively; new names are created once, ids not repeated', async () => {
    const { service, repo } = serviceOn([jazz, blues]);
    const ids = await resolve(service, 'tag', { items: ['Folk', 'folk'] });
    expect(ids).toEqual([100]);
    expect(repo.save).toHaveBeenCalledTimes(1);
    expect(repo.save.mock.calls[0][0]).toMatchObject({ taxonomy: 'tag', name: 'Folk', slug: 'folk' });

    const known = serviceOn([jazz, blues]);
    await expect(resolve(known.service, 'category', { items: ['JAZZ', 'blues', 'Jazz'] })).resolves.toEqual([1, 2]);
    expect(known.repo.save).not.toHaveBeenCalled();
  });
});

describe('TermsService create and rename conflicts (spec endpoints.md §6.2, §6.3)', () => {
  it('refuses a name used at the same level with term_exists and the existing id, writing nothing', async () => {
    const { service, repo } = serviceOn([term(1, 'Jazz', 'jazz')]);
    const err = await refusal(service.create(admin, 'category', { name: 'jazz' }));
    expect(err).toMatchObject({ code: 'term_exists', status: 400, data: expect.objectContaining({ term_id: 1 }) });
    expect(repo.save).not.toHaveBeenCalled();
  });

  it('allows the same name at another level of the hierarchy', async () => {
    const { service, repo } = serviceOn([term(1, 'Jazz', 'jazz'), term(2, 'Music', 'music')]);
    await service.create(admin, 'category', { name: 'Jazz', parent: 2 });
    expect(repo.save).toHaveBeenCalledTimes(1);
    expect(repo.save.mock.calls[0][0]).toMatchObject({ name: 'Jazz', parentId: 2, slug: 'jazz-2' });
  });

  it('refuses an explicit slug another term uses with duplicate_term_slug, writing nothing', async () => {
    const { service, repo } = serviceOn([term(1, 'Jazz', 'jazz')]);
    await expect(refusal(service.create(admin, 'category', { name: 'Swing', slug: 'Jazz' }))).resolves.toMatchObject({
      code: 'duplicate_term_slug',
      status: 400,
    });
    expect(repo.save).not.toHaveBeenCalled();
  });

  it('refuses renaming a term to a sibling name, but keeps its own name free', async () => {
    const { service, repo } = serviceOn([term(1, 'Jazz', 'jazz'), term(2, 'Blues', 'blues')]);
    await expect(refusal(service.update(admin, 'category', 2, { name: 'JAZZ' }))).resolves.toMatchObject({ code: 'term_exists', status: 400 });
    expect(repo.save).not.toHaveBeenCalled();
    await service.update(admin, 'category', 2, { name: 'blues' });
    expect(repo.save).toHaveBeenCalledWith(expect.objectContaining({ id: 2, name: 'blues' }), undefined);
  });

  it('refuses a caller without the right to manage terms before any write', async () => {
    const { service, repo, writes } = serviceOn([]);
    await expect(refusal(service.create(contributor, 'category', { name: 'New' }))).resolves.toMatchObject({ code: 'rest_forbidden', status: 403 });
    await expect(refusal(service.create(null, 'tag', { name: 'New' }))).resolves.toMatchObject({ status: 401 });
    expect(writes).toHaveLength(0);
    expect(repo.save).not.toHaveBeenCalled();
  });
});
