import { MigrationInterface, QueryRunner } from 'typeorm';

const EXPRESSION = 'LOWER(SUBSTR(name, 1, 191))';

/**
 * Venues' and organizers' `name_key`: the start of the name in lower case, indexed, for finding
 * a nested item by its name. `npm run migration:generate -- NameKeys` (sqlite) wrote
 * a copy of each table; SQLite adds a VIRTUAL generated column in place (ALTER TABLE ADD COLUMN),
 * which leaves the same schema without rewriting the rows, so that is what this does. Dated
 * before the test-only extension module's migration (1795800000000), which its e2e reverts as
 * the newest. Never edit once merged.
 */
export class NameKeys1795799500000 implements MigrationInterface {
  name = 'NameKeys1795799500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['organizers', 'venues']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "name_key" varchar(191) AS (${EXPRESSION}) VIRTUAL`);
      await queryRunner.query('INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES (NULL, NULL, ?, ?, ?, ?)', [
        table,
        'GENERATED_COLUMN',
        'name_key',
        EXPRESSION,
      ]);
      await queryRunner.query(`CREATE INDEX "ix_${table}_name_key" ON "${table}" ("name_key") `);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['venues', 'organizers']) {
      await queryRunner.query(`DROP INDEX "ix_${table}_name_key"`);
      await queryRunner.query('DELETE FROM "typeorm_metadata" WHERE "type" = ? AND "name" = ? AND "table" = ?', ['GENERATED_COLUMN', 'name_key', table]);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "name_key"`);
    }
  }
}
