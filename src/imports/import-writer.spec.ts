import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import { TERM_EXISTS } from '../taxonomies';
import { ChangeSet } from '../database/change-log';
import { UnitOfWork } from '../database/unit-of-work';
import type { WriteParticipant } from '../database/write-participants';
import { EventWriter } from '../events';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { newTestService } from '../../test/support/new-test-service';
import { ADOPTED, ImportRecordError, ImportWriter } from './import-writer';
import { ImportedRecordsRepository } from './imported-records.repository';
import { LocalRecords } from './local-records';

// The importers' writes without a database: the mapping in memory, the real LocalRecords over
// fake services whose writes run the participants they are given as the unit of work would
// (after the write, in its transaction), to see what is written, what is recorded, and when
// nothing is.

const TX = Symbol('tx');
const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const target = { source: 'ics:cal', kind: 'event' as const, key: 'uid-1', version: 'v1' };
const input = { title: 'Concert', start_date: '2030-01-01 20:00:00', end_date: '2030-01-01 22:00:00' };

/** A unit of work's part of a write: the stored row, then every declared participant with it. */
async function stored(row: unknown, participants: readonly WriteParticipant[] = []): Promise<unknown> {
  for (const p of participants) await p.written?.(TX as never, row, new ChangeSet());
  return row;
}

type Origin = { readonly participants: readonly WriteParticipant[] };

function setup(mapped: { localId: number; version: string | null } | null = null, typeOf: string | null = null) {
  const remembered: unknown[][] = [];
  const records = {
    find: jest.fn(async () => mapped),
    remember: jest.fn(async (_tx: unknown, ...rest: unknown[]) => void remembered.push(rest)),
  };
  const { sut: local, mocks } = newTestService(LocalRecords);
  const events = mocks.get(EventWriter);
  events.create.mockImplementation(async (_a, _dto, _raw, origin) => stored({ id: 42 }, (origin as Origin).participants) as never);
  events.updateById.mockImplementation(async (_a, id, _dto, _m, _raw, origin) => stored({ id }, (origin as Origin).participants) as never);
  const taxonomies = mocks.get(TermsService);
  mocks.get(PostsService).typeOf.mockResolvedValue(typeOf as never);
  jest.spyOn(local, 'setModifiedUtc');
  const unitOfWork = { runUnlogged: jest.fn(async (work: (tx: unknown) => Promise<unknown>) => work(TX)) };
  const { sut: writer } = newTestService(ImportWriter, [
    { provide: LocalRecords, useValue: local },
    { provide: ImportedRecordsRepository, useValue: records },
    { provide: UnitOfWork, useValue: unitOfWork },
  ]);
  return { writer, local, events, taxonomies, records, remembered, unitOfWork };
}

describe('ImportWriter.put', () => {
  it('creates an unknown record through the write pipeline as an import, the mapping declared as its participant', async () => {
    const { writer, events, remembered } = setup();
    await expect(writer.put(admin, target, input)).resolves.toEqual({ result: 'created', localId: 42 });
    const origin = events.create.mock.calls[0][3];
    expect(origin).toMatchObject({ kind: 'import', participants: [expect.objectContaining({ written: expect.any(Function) })] });
    expect(remembered).toEqual([['ics:cal', 'event', 'uid-1', 42, 'v1']]);
  });

  it('updates the record it was mapped to when the source version changed', async () => {
    const { writer, events, remembered } = setup({ localId: 7, version: 'v0' }, 'event');
    await expect(writer.put(admin, target, input)).resolves.toEqual({ result: 'updated', localId: 7 });
    expect(events.updateById.mock.calls[0][1]).toBe(7);
    expect(remembered).toEqual([['ics:cal', 'event', 'uid-1', 7, 'v1']]);
  });

  it('writes nothing when the mapping has this version already (unchanged), nor in a dry run', async () => {
    const same = setup({ localId: 7, version: 'v1' }, 'event');
    await expect(same.writer.put(admin, target, input)).resolves.toEqual({ result: 'unchanged', localId: 7 });
    expect(same.events.updateById).not.toHaveBeenCalled();
    const dry = setup();
    await expect(dry.writer.put(admin, target, input, { dryRun: true })).resolves.toEqual({ result: 'created', localId: 0 });
    expect(dry.events.create).not.toHaveBeenCalled();
    expect(dry.remembered).toEqual([]);
  });

  it('creates again a mapped record that was deleted here', async () => {
    const { writer, events } = setup({ localId: 7, version: 'v1' }, null);
    await expect(writer.put(admin, target, input)).resolves.toEqual({ result: 'created', localId: 42 });
    expect(events.create).toHaveBeenCalled();
  });

  it("turns the service's refusal into an ImportRecordError with the route's message, and records nothing", async () => {
    const { writer, events, remembered } = setup();
    events.create.mockRejectedValueOnce(
      new WpError('rest_invalid_param', 'Invalid parameter(s): start_date', 400, { params: { start_date: 'Invalid date.' } }),
    );
    const err = await writer.put(admin, target, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportRecordError);
    expect((err as Error).message).toBe('Invalid parameter(s): start_date (rest_invalid_param; start_date: Invalid date.)');
    expect(remembered).toEqual([]);
  });

  it('refuses input the route would refuse before writing (its DTO)', async () => {
    const { writer, events } = setup();
    await expect(writer.put(admin, target, { title: 5 })).rejects.toBeInstanceOf(ImportRecordError);
    expect(events.create).not.toHaveBeenCalled();
  });

  it('adopts a category of the same name instead of creating a second one', async () => {
    const { writer, taxonomies, remembered } = setup();
    taxonomies.create.mockRejectedValueOnce(new WpError(TERM_EXISTS, 'A term with the name provided already exists.', 400, { term_id: 9 }));
    const category = { source: 'ics:cal', kind: 'category' as const, key: 'Music', version: null };
    await expect(writer.put(admin, category, { name: 'Music' })).resolves.toEqual({ result: 'unchanged', localId: 9 });
    expect(remembered).toEqual([['ics:cal', 'category', 'Music', 9, ADOPTED]]);
  });

  it("gives the record the source's modified date inside the write's transaction", async () => {
    const { writer, local } = setup({ localId: 7, version: 'v0' }, 'event');
    await writer.put(admin, target, input, { modifiedUtc: '2029-05-01 10:00:00' });
    expect(local.setModifiedUtc).toHaveBeenCalledWith('event', 7, '2029-05-01 10:00:00', TX);
  });
});
