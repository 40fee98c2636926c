import { DataSource, EntityTarget, In, ObjectLiteral } from 'typeorm';
import { EventEntity } from '../events/entities/event.entity';
import { OrganizerEntity } from '../organizers/organizer.entity';
import { SCHEMA } from '../schema';
import { TermEntity } from '../taxonomies/entities/term.entity';
import { VenueEntity } from '../venues/venue.entity';
import { insertInChunks } from './bulk-insert';
import { findEntitiesByIds } from './entity-rows';
import { memoryDataSource } from './testing/memory-data-source';

/** A row with every column set (nullable ones to null on odd rows), by the column's type. */
function rowFor(ds: DataSource, entity: EntityTarget<ObjectLiteral>, id: number): ObjectLiteral {
  const row: ObjectLiteral = {};
  for (const column of ds.getMetadata(entity).columns) {
    if (column.isVirtual || column.generatedType) continue;
    const type = String(column.type);
    let value: unknown;
    if (column.propertyName === 'id') value = id;
    else if (column.isNullable && id % 2 === 1) value = null;
    else if (type === 'boolean') value = id % 3 === 0;
    else if (/int|decimal|float|double|number/i.test(type)) value = id * 7;
    else if (column.length === '19') value = `2026-0${(id % 9) + 1}-1${id % 10} 0${id % 10}:30:00`;
    else value = `${column.propertyName} ${id} – “é”`;
    row[column.propertyName] = value;
  }
  return row;
}

describe('findEntitiesByIds', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await memoryDataSource(SCHEMA);
  });
  afterAll(() => ds.destroy());

  it.each([
    ['events', EventEntity],
    ['venues', VenueEntity],
    ['organizers', OrganizerEntity],
    ['terms', TermEntity],
  ] as [string, EntityTarget<ObjectLiteral>][])('makes the same %s as find() does: values, types, key order, prototype', async (_name, entity) => {
    const rows = [1, 2, 3, 6].map((id) => rowFor(ds, entity, id));
    await ds.transaction((tx) => insertInChunks(tx, entity, rows));
    const ids = [6, 2, 1, 3, 99];
    const ours = await findEntitiesByIds(ds.manager, entity, ids);
    const orms = await ds.getRepository(entity).find({ where: { id: In(ids) } });
    const byId = (list: ObjectLiteral[]) => [...list].sort((a, b) => Number(a.id) - Number(b.id));
    expect(ours.length).toBe(4);
    expect(byId(ours)).toStrictEqual(byId(orms));
    byId(ours).forEach((item, i) => {
      expect(Object.getPrototypeOf(item)).toBe(Object.getPrototypeOf(byId(orms)[i]));
      expect(Object.keys(item)).toEqual(Object.keys(byId(orms)[i]));
    });
  });

  it('asks for nothing when given no ids', async () => {
    await expect(findEntitiesByIds(ds.manager, TermEntity, [])).resolves.toEqual([]);
  });
});
