import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `webhooks` row of change_counter: raised by every change of a subscription, read by every
 * write with the change log's own counter (one statement), so a write reads the subscriptions
 * again exactly when another instance changed them (database/webhook-outbox.ts). Never edit once merged.
 */
export class WebhooksVersion1795677000000 implements MigrationInterface {
  name = 'WebhooksVersion1795677000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO change_counter (name, seq, purged_seq) VALUES ('webhooks', 0, 0)");
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM change_counter WHERE name = 'webhooks'");
  }
}
