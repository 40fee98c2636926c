import { MigrationInterface, QueryRunner } from 'typeorm';
import { tecIdentityByOrigin } from '../shared/tec-identity-by-origin';

/** Hand-written (sqlite): TEC mappings by origin, not by API root (shared/tec-identity-by-origin.ts). Never edit once merged. */
export class TecIdentityByOrigin1795799600000 implements MigrationInterface {
  name = 'TecIdentityByOrigin1795799600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await tecIdentityByOrigin(queryRunner);
  }

  public async down(): Promise<void> {
    // The roots the mappings were made under are not kept: the mappings stay by origin.
  }
}
