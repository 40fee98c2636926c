import ICAL from 'ical.js';
import { icalRecurrenceLines, ruleDateKey } from './ical-lines';
import { parseRecurrence, SeriesTiming } from './recurrence-rule';

const paris: SeriesTiming = { startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 21:00:00', timezone: 'Europe/Paris', allDay: false };

describe('icalRecurrenceLines: the series’ VEVENT lines (recurrence.md §6)', () => {
  it('writes the RRULE as stored, and RDATE/EXDATE of a timed series in UTC form', () => {
    const rule = parseRecurrence(
      [
        'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T235959',
        'EXDATE:20270112T190000',
        'EXDATE;VALUE=DATE:20270714',
        'EXDATE:20270107T180000Z',
        'RDATE:20270704T190000',
      ],
      paris,
    );
    expect(icalRecurrenceLines(rule, paris)).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T225959Z',
      'RDATE:20270704T170000Z',
      // Summer time: 19:00 in Paris on 14 July is 17:00 UTC; in January 18:00.
      'EXDATE:20270107T180000Z,20270112T180000Z,20270714T170000Z',
    ]);
  });

  it('writes dates for an all-day series', () => {
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'America/New_York', allDay: true };
    const rule = parseRecurrence(['RRULE:FREQ=DAILY;COUNT=10', 'EXDATE;VALUE=DATE:20270107', 'EXDATE:20270108T030000Z', 'RDATE;VALUE=DATE:20270301'], allDay);
    expect(icalRecurrenceLines(rule, allDay)).toEqual(['RRULE:FREQ=DAILY;COUNT=10', 'RDATE;VALUE=DATE:20270301', 'EXDATE;VALUE=DATE:20270107']);
  });

  it('gives lines ical.js reads back as the same rule', () => {
    const rule = parseRecurrence(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=6', 'EXDATE:20270226T190000'], paris);
    const text = ['BEGIN:VEVENT', 'UID:x', 'DTSTART:20270129T180000Z', ...icalRecurrenceLines(rule, paris), 'END:VEVENT'].join('\r\n');
    const vevent = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect((vevent.getFirstPropertyValue('rrule') as ICAL.Recur).toString()).toBe('FREQ=MONTHLY;COUNT=6;BYDAY=-1FR');
    expect(String(vevent.getFirstPropertyValue('exdate'))).toBe('2027-02-26T18:00:00Z');
  });

  it('ruleDateKey: the start a value names, a UTC instant for a timed series and a day for an all-day one', () => {
    expect(ruleDateKey({ kind: 'wall', wall: '2027-07-14 19:00:00' }, paris)).toBe('2027-07-14 17:00:00');
    expect(ruleDateKey({ kind: 'date', date: '2027-01-12' }, paris)).toBe('2027-01-12 18:00:00');
    expect(ruleDateKey({ kind: 'utc', utc: '2027-01-12 18:00:00' }, { ...paris, allDay: true })).toBe('2027-01-12');
  });
});
