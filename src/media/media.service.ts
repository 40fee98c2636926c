import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Actor, can } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { invalidParam, PARAM_MESSAGES } from '../common/errors';
import { INVALID, toInt } from '../common/params';
import { PostsService } from '../posts';
import { probeImage, urlExtension } from './image-probe';
import { MediaEntity } from './media.entity';

/** The Image object of spec resources.md §5 (no resizing: url, id, extension). */
export interface ImageJson {
  url: string;
  id: number;
  extension: string;
}

/** How `""`/`0`/`false` behave: events remove their image, venues and organizers ignore them. */
export type EmptyImageMeans = 'remove' | 'ignore';

/** Featured images given by media id or by URL (spec endpoints.md §4.7). */
@Injectable()
export class MediaService {
  /** Replaceable in tests that must not reach the network. */
  probe: (url: string) => Promise<string | null> = (url) => probeImage(url);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly posts: PostsService,
  ) {}

  /**
   * Reads the `image` write field: undefined = leave as is, null = no image, a number = that
   * media item. Throws 400 rest_invalid_param (param `image`) for anything unusable.
   */
  async resolve(actor: Actor | null, value: unknown, empty: EmptyImageMeans): Promise<number | null | undefined> {
    if (value === undefined || value === null) return undefined;
    if (value === '' || value === 0 || value === '0' || value === false) return empty === 'remove' ? null : undefined;
    const bad = () => invalidParam('image', PARAM_MESSAGES.image);

    const id = typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim())) ? toInt(value) : INVALID;
    if (id !== INVALID) {
      if (!Number.isSafeInteger(id) || !(await this.db.getRepository(MediaEntity).exist({ where: { id } }))) throw bad();
      return id;
    }
    if (typeof value !== 'string' || !/^https?:\/\/[^\s/]+/i.test(value.trim())) throw bad();
    const url = value.trim();
    if (!can(actor, 'upload_files')) throw bad();
    const urlHash = createHash('sha256').update(url).digest('hex');
    const known = await this.db.getRepository(MediaEntity).findOne({ where: { urlHash }, select: { id: true } });
    if (known) return known.id;
    const mimeType = await this.probe(url);
    if (!mimeType) throw bad();
    return this.db.transaction(async (tx) => {
      const again = await tx.getRepository(MediaEntity).findOne({ where: { urlHash }, select: { id: true } });
      if (again) return again.id;
      const newId = await this.posts.allocate('media', tx);
      await tx.getRepository(MediaEntity).insert({ id: newId, url, urlHash, mimeType, authorId: actor?.id ?? 0, dateUtc: nowUtcSql() });
      return newId;
    });
  }

  /** Image objects for a set of media ids, in one query. */
  async present(ids: (number | null | undefined)[]): Promise<Map<number, ImageJson>> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))];
    const out = new Map<number, ImageJson>();
    if (wanted.length === 0) return out;
    const rows = await this.db.getRepository(MediaEntity).find({ where: { id: In(wanted) }, select: { id: true, url: true } });
    for (const row of rows) out.set(row.id, { url: row.url, id: row.id, extension: urlExtension(row.url) });
    return out;
  }
}
