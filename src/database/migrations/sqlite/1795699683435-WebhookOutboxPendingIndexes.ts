import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand (TypeORM does not compare an index's WHERE, so migration:generate sees no
 * change), SQLite only: the outbox's two indexes that only the worker's claim reads hold the
 * pending deliveries alone. A delivered row then leaves them (one deletion each) instead of
 * moving to the delivered end of them, they stay a few pages however long the log grows, and
 * each write and outcome dirties fewer pages (docs/performance.md). MySQL and MariaDB
 * have no partial indexes: there they stay whole. Never edit once merged.
 */
export class WebhookOutboxPendingIndexes1795699683435 implements MigrationInterface {
  name = 'WebhookOutboxPendingIndexes1795699683435';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_due"');
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_item"');
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_item" ON "webhook_deliveries" ("webhook_id", "type", "item_id", "status", "seq") WHERE status = 'pending'`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "seq") WHERE status = 'pending'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_due"');
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_item"');
    await queryRunner.query('CREATE INDEX "ix_webhook_deliveries_item" ON "webhook_deliveries" ("webhook_id", "type", "item_id", "status", "seq") ');
    await queryRunner.query('CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "seq") ');
  }
}
