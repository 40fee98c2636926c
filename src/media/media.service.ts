import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, can } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { invalidParam } from '../common/errors';
import { INVALID, toInt } from '../common/params';
import { AppConfig } from '../config/app-config';
import { OUTER, type Reader, type Tx } from '../database/tx';
import { PostsService } from '../posts';
import { probeImage, urlExtension } from './image-probe';
import { MediaRepository } from './media.repository';

/** The Image object of spec resources.md §5 (no resizing: url, id, extension). */
export interface ImageJson {
  url: string;
  id: number;
  extension: string;
}

/** How `""`/`0`/`false` behave: events remove their image, venues and organizers ignore them. */
export type EmptyImageMeans = 'remove' | 'ignore';

/**
 * The `image` write field once checked: leave as is, no image, a media item, or an image URL
 * still to be probed (`mimeType` set once it has been).
 */
export type ImageChoice = { kind: 'keep' } | { kind: 'none' } | { kind: 'id'; id: number } | { kind: 'url'; url: string; mimeType?: string };

/**
 * Featured images given by media id or by URL (spec endpoints.md §4.7), in three steps so that
 * nothing leaves the service and nothing is written before the write is known to be allowed:
 * `choose` with the parameters (no network, no write), `probe` after the permission and target
 * checks (the outbound request), `idFor` inside the write's transaction (the media row).
 */
@Injectable()
export class MediaService {
  /** Replaceable in tests that must not reach the network. */
  probe: (url: string) => Promise<string | null> = (url) => probeImage(url, { allowPrivate: this.config.allowPrivateUrls });

  constructor(
    private readonly media: MediaRepository,
    private readonly posts: PostsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Reads the `image` write field. Throws 400 rest_invalid_param (param `image`) for anything
   * unusable: an unknown media id, text that is no http(s) URL, a URL from a caller without the
   * upload right. `reader`: inside a write, its transaction.
   */
  async choose(actor: Actor | null, value: unknown, empty: EmptyImageMeans, reader: Reader): Promise<ImageChoice> {
    if (value === undefined || value === null) return { kind: 'keep' };
    if (value === '' || value === 0 || value === '0' || value === false) return empty === 'remove' ? { kind: 'none' } : { kind: 'keep' };
    const id = typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim())) ? toInt(value) : INVALID;
    if (id !== INVALID) {
      if (!Number.isSafeInteger(id) || !(await this.media.exists(reader, id))) throw badImage();
      return { kind: 'id', id };
    }
    if (typeof value !== 'string' || !/^https?:\/\/[^\s/]+/i.test(value.trim()) || value.trim().length > 2000) throw badImage();
    if (!can(actor, 'upload_files')) throw badImage();
    return { kind: 'url', url: value.trim() };
  }

  /** Asks the image's server (a URL already known needs no request). Throws 400 when it is no image. */
  async probeChoice(choice: ImageChoice): Promise<ImageChoice> {
    if (choice.kind !== 'url' || choice.mimeType !== undefined) return choice;
    const known = await this.media.idOfUrl(OUTER, urlHash(choice.url));
    if (known !== null) return { kind: 'id', id: known };
    const mimeType = await this.probe(choice.url);
    if (!mimeType) throw badImage();
    return { ...choice, mimeType };
  }

  /**
   * probeChoice for a write inside a running unit of work, where no request may leave the
   * service: an image URL already known becomes its media item, any other is refused (400).
   */
  async knownChoice(tx: Tx, choice: ImageChoice): Promise<ImageChoice> {
    if (choice.kind !== 'url' || choice.mimeType !== undefined) return choice;
    const known = await this.media.idOfUrl(tx, urlHash(choice.url));
    if (known === null) throw badImage();
    return { kind: 'id', id: known };
  }

  /** The media id to store, inside the write's transaction: undefined = leave as is, null = none. */
  async idFor(tx: Tx, choice: ImageChoice, actor: Actor | null): Promise<number | null | undefined> {
    if (choice.kind === 'keep') return undefined;
    if (choice.kind === 'none') return null;
    if (choice.kind === 'id') return choice.id;
    if (choice.mimeType === undefined) throw new Error('image URL written before it was probed');
    const hash = urlHash(choice.url);
    const again = await this.media.idOfUrl(tx, hash);
    if (again !== null) return again;
    const newId = await this.posts.allocate('media', tx);
    await this.media.insert(tx, { id: newId, url: choice.url, urlHash: hash, mimeType: choice.mimeType, authorId: actor?.id ?? 0, dateUtc: nowUtcSql() });
    return newId;
  }

  /** Image objects for a set of media ids, in one query. */
  async present(ids: (number | null | undefined)[]): Promise<Map<number, ImageJson>> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))];
    const out = new Map<number, ImageJson>();
    if (wanted.length === 0) return out;
    const rows = await this.media.urls(wanted);
    for (const row of rows) out.set(row.id, { url: row.url, id: row.id, extension: urlExtension(row.url) });
    return out;
  }
}

/** The parameter message of an unusable `image` (errors.md, suggested wording). */
const IMAGE_MESSAGE = 'Must be the id of an existing image or the URL of a reachable image.';

const badImage = () => invalidParam('image', IMAGE_MESSAGE);

const urlHash = (url: string): string => createHash('sha256').update(url).digest('hex');
