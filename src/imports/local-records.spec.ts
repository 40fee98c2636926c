import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import { EventsRepository, EventWriter } from '../events';
import { ORGANIZER_TOKENS, OrganizersRepository } from '../organizers';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenuesRepository } from '../venues';
import { newTestService } from '../../test/support/new-test-service';
import { LocalRecords } from './local-records';

// Each kind's local record reached through its own feature: which service writes it, how its
// existence and trash are read, and which kinds carry a modified date.

const TX = Symbol('tx');
const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };

function setup() {
  const { sut, mocks } = newTestService(LocalRecords);
  return { local: sut, mocks };
}

describe('LocalRecords', () => {
  it('writes each kind through the service its routes call, as an import, with the declared participants', async () => {
    const { local, mocks } = setup();
    const participants = [{ written: jest.fn() }];
    await local.create(admin, 'event', { title: 'x' }, { recurrence: 'r' }, participants);
    expect(mocks.get(EventWriter).create).toHaveBeenCalledWith(admin, { title: 'x' }, { recurrence: 'r' }, { kind: 'import', participants });
    await local.update(admin, 'event', 7, { title: 'y' }, {}, participants);
    expect(mocks.get(EventWriter).updateById).toHaveBeenCalledWith(admin, 7, { title: 'y' }, undefined, {}, { kind: 'import', participants });

    const venues = mocks.get<{ create: jest.Mock; update: jest.Mock }>(VENUE_TOKENS.writes);
    await local.create(admin, 'venue', { venue: 'Hall' }, { venue: 'Hall' }, participants);
    expect(venues.create).toHaveBeenCalledWith(admin, { venue: 'Hall' }, { venue: 'Hall' }, participants);
    const organizers = mocks.get<{ create: jest.Mock; update: jest.Mock }>(ORGANIZER_TOKENS.writes);
    await local.update(admin, 'organizer', 9, { phone: '1' }, {}, participants);
    expect(organizers.update).toHaveBeenCalledWith(admin, { id: 9 }, { phone: '1' }, {}, undefined, participants);

    await local.create(admin, 'tag', { name: 'jazz' }, {}, participants);
    expect(mocks.get(TermsService).create).toHaveBeenCalledWith(admin, 'tag', { name: 'jazz' }, participants);
    await local.update(admin, 'category', 5, { name: 'Music' }, {}, participants);
    expect(mocks.get(TermsService).update).toHaveBeenCalledWith(admin, 'category', 5, { name: 'Music' }, undefined, participants);
  });

  it('finds a post-like record by its post type, and a term by a read that refuses when there is none', async () => {
    const { local, mocks } = setup();
    mocks.get(PostsService).typeOf.mockResolvedValue('venue');
    expect(await local.exists('venue', 3)).toBe(true);
    expect(await local.exists('event', 3)).toBe(false);
    const taxonomies = mocks.get(TermsService);
    taxonomies.get.mockResolvedValueOnce({} as never);
    expect(await local.exists('category', 4)).toBe(true);
    taxonomies.get.mockRejectedValueOnce(new WpError('rest_term_invalid', 'Term does not exist.', 404));
    expect(await local.exists('category', 4)).toBe(false);
    taxonomies.get.mockRejectedValueOnce(new Error('connection lost'));
    await expect(local.exists('tag', 4)).rejects.toThrow('connection lost');
  });

  it("reads the trash from the kind's own rows; terms are never in it", async () => {
    const { local, mocks } = setup();
    mocks.get(EventsRepository).findById.mockResolvedValue({ status: 'trash' } as never);
    mocks.get(VenuesRepository).findById.mockResolvedValue({ status: 'publish' } as never);
    mocks.get(OrganizersRepository).findById.mockResolvedValue(null);
    expect(await local.inTrash('event', 1)).toBe(true);
    expect(await local.inTrash('venue', 2)).toBe(false);
    expect(await local.inTrash('organizer', 3)).toBe(false);
    expect(await local.inTrash('tag', 4)).toBe(false);
  });

  it('sets the modified date of events, venues and organizers in the given transaction, and leaves terms alone', async () => {
    const { local, mocks } = setup();
    await local.setModifiedUtc('event', 1, '2029-01-01 00:00:00', TX as never);
    await local.setModifiedUtc('organizer', 3, '2029-01-02 00:00:00', TX as never);
    await local.setModifiedUtc('category', 4, '2029-01-03 00:00:00', TX as never);
    expect(mocks.get(EventsRepository).setModifiedUtc).toHaveBeenCalledWith(1, '2029-01-01 00:00:00', TX);
    expect(mocks.get(OrganizersRepository).setModifiedUtc).toHaveBeenCalledWith(3, '2029-01-02 00:00:00', TX);
    expect(mocks.get(VenuesRepository).setModifiedUtc).not.toHaveBeenCalled();
  });
});
