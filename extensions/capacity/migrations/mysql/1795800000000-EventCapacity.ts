import { MigrationInterface, QueryRunner } from 'typeorm';

/** The capacity module's table (mysql); after every core migration. Never edit once merged. */
export class EventCapacity1795800000000 implements MigrationInterface {
  name = 'EventCapacity1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `event_capacity` (`event_id` int NOT NULL, `capacity` int NOT NULL, INDEX `ix_event_capacity_capacity` (`capacity`), PRIMARY KEY (`event_id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `ix_event_capacity_capacity` ON `event_capacity`');
    await queryRunner.query('DROP TABLE `event_capacity`');
  }
}
