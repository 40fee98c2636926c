import type { QueryRunner } from 'typeorm';

const ITEMS = "kind IN ('event', 'venue', 'organizer')";

/**
 * TEC records are known by their origin's global id, not by the URL that reached the site
 * (sources.md §4). The mappings made under `tec <API root>` move to `tec`; where two roots
 * mapped one global id (the same site reached twice), the oldest mapping stays and the local
 * copy the other one made is left as it is, unmapped. Term mappings by source term id are
 * dropped: terms are matched by name now. The same statements on both engines (the derived
 * table `kept` lets MySQL read the table it deletes from). Frozen with the migrations.
 */
export async function tecIdentityByOrigin(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `DELETE FROM imported_records WHERE source LIKE 'tec %' AND ${ITEMS} AND id NOT IN ` +
      `(SELECT keep_id FROM (SELECT MIN(id) AS keep_id FROM imported_records WHERE source LIKE 'tec %' AND ${ITEMS} GROUP BY kind, LOWER(source_key)) kept)`,
  );
  await queryRunner.query(`UPDATE imported_records SET source = 'tec', source_key = LOWER(source_key) WHERE source LIKE 'tec %' AND ${ITEMS}`);
  await queryRunner.query("DELETE FROM imported_records WHERE source LIKE 'tec %' AND kind IN ('category', 'tag')");
}
