import { describeRecurrence } from './describe';
import { parseRecurrence, SeriesTiming } from './recurrence-rule';

const ny: SeriesTiming = { startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 20:00:00', timezone: 'America/New_York', allDay: false };
const words = (lines: string[], timing = ny) => describeRecurrence(parseRecurrence(lines, timing), timing);

describe('describeRecurrence: the words on an occurrence’s page (recurrence.md §6)', () => {
  it.each<[string[], string]>([
    [['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T235959'], 'Every Tuesday and Thursday until 31 December 2027'],
    [['RRULE:FREQ=WEEKLY;BYDAY=TH,TU'], 'Every Tuesday and Thursday'],
    [['RRULE:FREQ=WEEKLY'], 'Every Tuesday'],
    [['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR'], 'Every 2 weeks on Monday, Wednesday and Friday'],
    [['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'], 'Every weekday'],
    [['RRULE:FREQ=DAILY'], 'Every day'],
    [['RRULE:FREQ=DAILY;BYDAY=TH,TU'], 'Every Tuesday and Thursday'],
    [['RRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO'], 'Every 2 days on Monday'],
    [['RRULE:FREQ=DAILY;BYMONTH=7,8'], 'Every day in July and August'],
    [['RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'], 'Every month, on a custom schedule'],
    [['RRULE:FREQ=MONTHLY;BYDAY=1MO,FR'], 'Every month on the first Monday and every Friday'],
    [['RRULE:FREQ=YEARLY;BYMONTH=12;BYDAY=SU'], 'Every year on every Sunday of December'],
    [['RRULE:FREQ=DAILY;INTERVAL=3;COUNT=10'], 'Every 3 days, 10 times'],
    [['RRULE:FREQ=DAILY;COUNT=1'], 'Every day, 1 time'],
    [['RRULE:FREQ=MONTHLY'], 'Every month on the 5th'],
    [['RRULE:FREQ=MONTHLY;BYMONTHDAY=31'], 'Every month on the 31st'],
    [['RRULE:FREQ=MONTHLY;BYMONTHDAY=1,-1'], 'Every month on the 1st and the last day'],
    [['RRULE:FREQ=MONTHLY;BYDAY=-1FR'], 'Every month on the last Friday'],
    [['RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU'], 'Every 2 months on the second Tuesday'],
    [['RRULE:FREQ=MONTHLY;BYDAY=-2MO'], 'Every month on the second to last Monday'],
    [['RRULE:FREQ=YEARLY'], 'Every year on 5 January'],
    [['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'], 'Every year on 29 February'],
    [['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'], 'Every year on the last Sunday of March'],
    [['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'], 'Every month, on a custom schedule'],
    [
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5', 'RDATE:20270704T190000', 'EXDATE:20270112T190000', 'EXDATE:20270119T190000'],
      'Every Tuesday, 5 times, plus 1 other date, except 2 dates',
    ],
    [['RDATE:20270704T190000,20270801T190000'], 'On 3 dates'],
    [[], ''],
  ])('%j → %s', (lines, expected) => {
    expect(words(lines)).toBe(expected);
  });

  it('says UNTIL as the day in the series’ zone, and an all-day series’ date as it is', () => {
    // 2028-01-01 03:00 UTC is still 31 December in New York.
    expect(words(['RRULE:FREQ=DAILY;UNTIL=20280101T030000Z'])).toBe('Every day until 31 December 2027');
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'Asia/Tokyo', allDay: true };
    expect(words(['RRULE:FREQ=WEEKLY;UNTIL=20270301'], allDay)).toBe('Every Tuesday until 1 March 2027');
  });
});
