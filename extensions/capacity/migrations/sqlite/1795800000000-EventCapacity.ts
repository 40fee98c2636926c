import { MigrationInterface, QueryRunner } from 'typeorm';

/** The capacity module's table (sqlite); after every core migration. Never edit once merged. */
export class EventCapacity1795800000000 implements MigrationInterface {
  name = 'EventCapacity1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE "event_capacity" ("event_id" integer PRIMARY KEY NOT NULL, "capacity" integer NOT NULL)');
    await queryRunner.query('CREATE INDEX "ix_event_capacity_capacity" ON "event_capacity" ("capacity") ');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_event_capacity_capacity"');
    await queryRunner.query('DROP TABLE "event_capacity"');
  }
}
