import { createHash } from 'node:crypto';
import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import { AppConfig } from '../config/app-config';
import { OUTER, type Tx } from '../database/tx';
import type { UnitOfWork } from '../database/unit-of-work';
import { PostsService } from '../posts';
import { newTestService } from '../../test/support/new-test-service';
import { MediaRepository } from './media.repository';
import { MediaService } from './media.service';

// Featured images by id or URL (spec endpoints.md §4.7) without a database or the network:
// a fake media table, a fake probe. What is pinned is the three steps' promise:
// `choose` neither asks the network nor writes, `probeChoice` asks only for a URL it does not
// know, `idFor` writes only a probed URL, once.

const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const subscriber: Actor = { id: 5, login: 'su', role: 'subscriber' };
const KNOWN_URL = 'https://img.test/known.jpg';

function setup() {
  const rows = [{ id: 40, url: KNOWN_URL }];
  const hashOf = (url: string) => createHash('sha256').update(url).digest('hex');
  const media = {
    exists: jest.fn(async ({ where }: { where: { id: number } }) => rows.some((r) => r.id === where.id)),
    findOne: jest.fn(async ({ where }: { where: { urlHash: string } }) => rows.find((r) => hashOf(r.url) === where.urlHash) ?? null),
    find: jest.fn(async () => rows),
    insert: jest.fn(async (row: { id: number; url: string }) => void rows.push(row)),
  };
  const db = { getRepository: () => media, manager: { getRepository: () => media } };
  const posts = { allocate: jest.fn(async () => 41) };
  const service = newTestService(MediaService, [
    { provide: MediaRepository, useValue: new MediaRepository(db as never) },
    { provide: PostsService, useValue: posts },
    { provide: AppConfig, useValue: { allowPrivateUrls: false } },
  ]).sut;
  service.probe = jest.fn(async (url: string) => (url.endsWith('.jpg') ? 'image/jpeg' : null));
  // idFor runs in a write's transaction: a unit of work whose transaction answers with the fake table.
  const unitOfWork = { run: async <T>(work: (tx: unknown) => Promise<T>) => work({ getRepository: () => media }) } as unknown as UnitOfWork;
  const inWrite = <T>(work: (tx: Tx) => Promise<T>) => unitOfWork.run(async (tx) => work(tx));
  return { service, media, posts, inWrite };
}

describe('MediaService.choose (no network, no write)', () => {
  it.each([
    [undefined, 'remove', { kind: 'keep' }],
    ['', 'remove', { kind: 'none' }],
    [0, 'ignore', { kind: 'keep' }],
    [false, 'remove', { kind: 'none' }],
    ['40', 'remove', { kind: 'id', id: 40 }],
    [' https://img.test/new.jpg ', 'remove', { kind: 'url', url: 'https://img.test/new.jpg' }],
  ] as const)('%p with empty meaning %s → %p', async (value, empty, expected) => {
    const { service } = setup();
    expect(await service.choose(editor, value, empty, OUTER)).toEqual(expected);
    expect(service.probe).not.toHaveBeenCalled();
  });

  it('refuses an unknown media id, text that is no http(s) URL, and a URL from a caller who may not upload', async () => {
    const { service } = setup();
    for (const [actor, value] of [
      [editor, 99],
      [editor, 'javascript:alert(1)'],
      [editor, `https://img.test/${'a'.repeat(2000)}`],
      [subscriber, 'https://img.test/new.jpg'],
      [null, 'https://img.test/new.jpg'],
    ] as const) {
      expect(await refusal(service.choose(actor, value, 'remove', OUTER))).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { image: expect.any(String) } },
      });
    }
  });
});

describe('MediaService.probeChoice and idFor', () => {
  it('a URL already stored needs no request: it becomes its media id', async () => {
    const { service } = setup();
    expect(await service.probeChoice({ kind: 'url', url: KNOWN_URL })).toEqual({ kind: 'id', id: 40 });
    expect(service.probe).not.toHaveBeenCalled();
  });

  it('a new URL is probed once; one that is no image is a 400', async () => {
    const { service } = setup();
    const probed = await service.probeChoice({ kind: 'url', url: 'https://img.test/new.jpg' });
    expect(probed).toEqual({ kind: 'url', url: 'https://img.test/new.jpg', mimeType: 'image/jpeg' });
    expect(await service.probeChoice(probed)).toBe(probed);
    expect(service.probe).toHaveBeenCalledTimes(1);
    expect(await refusal(service.probeChoice({ kind: 'url', url: 'https://img.test/page.html' }))).toMatchObject({ status: 400 });
  });

  it('idFor: leave as is, none, an id, or a new media row for a probed URL, reused when it was stored meanwhile', async () => {
    const { service, media, posts, inWrite } = setup();
    expect(await inWrite((tx) => service.idFor(tx, { kind: 'keep' }, editor))).toBeUndefined();
    expect(await inWrite((tx) => service.idFor(tx, { kind: 'none' }, editor))).toBeNull();
    expect(await inWrite((tx) => service.idFor(tx, { kind: 'id', id: 40 }, editor))).toBe(40);
    expect(await inWrite((tx) => service.idFor(tx, { kind: 'url', url: KNOWN_URL, mimeType: 'image/jpeg' }, editor))).toBe(40);
    expect(posts.allocate).not.toHaveBeenCalled();
    const url = 'https://img.test/new.jpg';
    expect(await inWrite((tx) => service.idFor(tx, { kind: 'url', url, mimeType: 'image/jpeg' }, editor))).toBe(41);
    expect(media.insert).toHaveBeenCalledWith(expect.objectContaining({ id: 41, url, mimeType: 'image/jpeg', authorId: editor.id }));
  });

  it('idFor refuses to store a URL that was never probed', async () => {
    const { service, inWrite } = setup();
    await expect(inWrite((tx) => service.idFor(tx, { kind: 'url', url: 'https://img.test/new.jpg' }, editor))).rejects.toThrow(/before it was probed/);
  });

  it('present: one query for the distinct ids, none for no id', async () => {
    const { service, media } = setup();
    expect((await service.present([null, undefined, 0])).size).toBe(0);
    expect(media.find).not.toHaveBeenCalled();
    expect(await service.present([40, 40, null])).toEqual(new Map([[40, { url: KNOWN_URL, id: 40, extension: 'jpg' }]]));
    expect(media.find).toHaveBeenCalledTimes(1);
  });
});
