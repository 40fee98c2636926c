import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { placeholders } from './sql';

/** What selecting an entity takes: its column list (aliases c0, c1, …) and the columns to hydrate. */
interface EntityShape {
  from: string;
  idColumn: string;
  columns: ColumnMetadata[];
}

const shapes = new WeakMap<EntityMetadata, EntityShape>();

function shapeOf(manager: EntityManager, metadata: EntityMetadata): EntityShape {
  let shape = shapes.get(metadata);
  if (!shape) {
    const driver = manager.connection.driver;
    // The columns TypeORM's find() selects and hydrates for a whole entity.
    const columns = metadata.columns.filter((c) => !c.isVirtual && c.isSelect && !c.isVirtualProperty);
    const [primary] = metadata.primaryColumns;
    if (metadata.primaryColumns.length !== 1 || metadata.discriminatorColumn)
      throw new Error(`${metadata.name}: one primary column and no inheritance expected`);
    const select = columns.map((c, i) => `${driver.escape(c.databaseName)} AS c${i}`).join(', ');
    shape = {
      from: `SELECT ${select} FROM ${driver.escape(metadata.tableName)} WHERE ${driver.escape(primary.databaseName)} IN `,
      idColumn: primary.databaseName,
      columns,
    };
    shapes.set(metadata, shape);
  }
  return shape;
}

/**
 * The rows with these ids as entities, the same objects TypeORM's `find({ where: { id: In(ids) } })`
 * makes (created as its deserializer creates them, each column hydrated by the driver, in the
 * same order), from plain SQL: the ORM's query building and result mapping cost several times
 * the lookup on paths that run on every write or presented page. For entities
 * with one primary column, no inheritance and no relations to load. Engine order, as find()'s.
 */
export async function findEntitiesByIds<E extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<E>, ids: readonly number[]): Promise<E[]> {
  if (ids.length === 0) return [];
  const metadata = manager.connection.getMetadata(entity);
  const shape = shapeOf(manager, metadata);
  const driver = manager.connection.driver;
  const rows = (await manager.query(`${shape.from}(${placeholders(ids)})`, [...ids])) as Record<string, unknown>[];
  return rows.map((row) => {
    const item = metadata.create(undefined, { fromDeserializer: true }) as E;
    shape.columns.forEach((column, i) => {
      const value = row[`c${i}`];
      if (value !== undefined) column.setEntityValue(item, driver.prepareHydratedValue(value, column));
    });
    return item;
  });
}
