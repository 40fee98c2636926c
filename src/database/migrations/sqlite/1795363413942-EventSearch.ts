import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillEventSearch } from '../shared/event-search-backfill';

/**
 * Written by hand (an FTS5 table is not an entity): the search pre-filter, see
 * src/events/search-grams.ts. Contentless (the documents live only in the index), without
 * positions (only "which events have this token" is asked). Never edit once merged.
 */
export class EventSearch1795363413942 implements MigrationInterface {
  name = 'EventSearch1795363413942';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE VIRTUAL TABLE \"event_search\" USING fts5(grams, content='', contentless_delete=1, detail=none, tokenize='ascii')");
    await backfillEventSearch(queryRunner, 'sqlite');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "event_search"');
  }
}
