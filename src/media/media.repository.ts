import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { managerOf, type Reader, type Tx } from '../database/tx';
import { MediaEntity } from './media.entity';

/** The `media` table: featured images by id and by the hash of their URL. */
@Injectable()
export class MediaRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Is there a media item with this id? `reader`: inside a write, its transaction. */
  exists(reader: Reader, id: number): Promise<boolean> {
    return managerOf(reader, this.db).getRepository(MediaEntity).exists({ where: { id } });
  }

  /** The id of the media item whose URL has this hash; null when none. */
  async idOfUrl(reader: Reader, urlHash: string): Promise<number | null> {
    const row = await managerOf(reader, this.db)
      .getRepository(MediaEntity)
      .findOne({ where: { urlHash }, select: { id: true } });
    return row?.id ?? null;
  }

  async insert(tx: Tx, row: Pick<MediaEntity, 'id' | 'url' | 'urlHash' | 'mimeType' | 'authorId' | 'dateUtc'>): Promise<void> {
    await tx.getRepository(MediaEntity).insert(row);
  }

  /** The id and URL of those of the media items `ids` that exist. */
  urls(ids: number[]): Promise<Pick<MediaEntity, 'id' | 'url'>[]> {
    return this.db.getRepository(MediaEntity).find({ where: { id: In(ids) }, select: { id: true, url: true } });
  }
}
