import type { EventEntity } from '../events';
import type { EventFormHook } from './event-form-hooks';
import { endBeforeStart, newEventValues, postedValues, tagNames, writeInput } from './event-form-values';

const seats: EventFormHook = {
  name: 'cap',
  formFields: [
    { param: 'seats', label: 'Seats', kind: 'number' },
    { param: 'vip', label: 'VIP', kind: 'checkbox' },
  ],
};

describe('the event form values', () => {
  it('reads tags one a line: a comma stays in its name, blanks and repeats go', () => {
    expect(tagNames('rock, paper\n\n  live \r\nlive\n')).toEqual(['rock, paper', 'live']);
  });

  it('sees an end before the start, all-day events by their days', () => {
    const v = { ...newEventValues('UTC', []), start_date: '2031-01-02', start_time: '10:00', end_date: '2031-01-02', end_time: '09:59' };
    expect(endBeforeStart(v)).toBe(true);
    expect(endBeforeStart({ ...v, end_time: '10:00' })).toBe(false);
    expect(endBeforeStart({ ...v, all_day: true })).toBe(false);
    expect(endBeforeStart({ ...v, all_day: true, end_date: '2031-01-01' })).toBe(true);
    expect(endBeforeStart({ ...v, end_date: '' })).toBe(false); // the write path names a missing date
  });

  it('builds the API input of a new event: nested venue and organizer, flags as booleans, extension fields under their parameters', () => {
    const v = postedValues(
      {
        title: 'T',
        start_date: '2031-01-02',
        start_time: '10:00',
        end_date: '2031-01-02',
        end_time: '11:30',
        all_day: undefined,
        timezone: 'Europe/Paris',
        venue: 'new',
        new_venue: { venue: 'Hall', city: 'Lyon', address: '' },
        organizers: ['7', 'new'],
        new_organizer: { organizer: 'Jo' },
        categories: ['3', 'x'],
        tags: 'a, b',
        featured: '1',
        ext: { seats: '40', vip: '1' },
      },
      [seats],
    );
    expect(writeInput(v, null, [seats])).toEqual({
      title: 'T',
      all_day: false,
      start_date: '2031-01-02 10:00:00',
      end_date: '2031-01-02 11:30:00',
      timezone: 'Europe/Paris',
      venue: { venue: 'Hall', city: 'Lyon' },
      organizer: ['7', { organizer: 'Jo' }],
      categories: [3],
      tags: ['a, b'],
      cost: '',
      website: '',
      featured: true,
      sticky: false,
      hide_from_listings: false,
      show_map: false,
      show_map_link: false,
      seats: '40',
      vip: true,
    });
  });

  it('on an update, removes what was emptied and keeps a stored time to the second', () => {
    const stored = {
      startDate: '2031-01-02 10:00:30',
      endDate: '2031-01-02 11:00:00',
      description: 'old',
      excerpt: '',
      dateUtc: '2030-01-01 00:00:07',
      timezone: 'UTC',
    } as EventEntity;
    const v = {
      ...newEventValues('UTC', []),
      title: 'T',
      start_date: '2031-01-02',
      start_time: '10:00',
      end_date: '2031-01-02',
      end_time: '11:00',
      publish_date: '2030-01-01T00:00',
    };
    const input = writeInput(v, stored, []);
    expect(input).toMatchObject({ start_date: '2031-01-02 10:00:30', description: '', venue: 0, organizer: [], image: '' });
    expect(input).not.toHaveProperty('date');
    expect(input).not.toHaveProperty('excerpt');
    expect(writeInput({ ...v, all_day: true }, stored, [])).toMatchObject({ start_date: '2031-01-02 00:00:00', end_date: '2031-01-02 23:59:59' });
  });
});
