import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillEventSearch } from '../shared/event-search-backfill';

/**
 * Written by hand (a FULLTEXT index the entities do not describe): the search pre-filter, see src/events/search-grams.ts. The index is added after the backfill, which
 * builds it in one pass instead of row by row. Never edit once merged.
 */
export class EventSearch1795363413942 implements MigrationInterface {
  name = 'EventSearch1795363413942';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE `event_search` (`event_id` int NOT NULL, `grams` mediumtext NOT NULL, PRIMARY KEY (`event_id`)) ENGINE=InnoDB');
    await backfillEventSearch(queryRunner, 'mysql');
    await queryRunner.query('ALTER TABLE `event_search` ADD FULLTEXT INDEX `ft_event_search` (`grams`)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `event_search`');
  }
}
