// VTIMEZONE blocks in the shapes calendar programs write, for the importer's unit and e2e tests.
// Outlook's have one STANDARD and one DAYLIGHT observance with yearly RRULEs from
// 1601; Google's and Apple's carry the zone's rules from a recent DTSTART.

/** Outlook's `W. Europe Standard Time`. */
export const OUTLOOK_W_EUROPE = [
  'BEGIN:VTIMEZONE',
  'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

/** Outlook's `Eastern Standard Time`. */
export const OUTLOOK_EASTERN = [
  'BEGIN:VTIMEZONE',
  'TZID:Eastern Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

/** A zone under a name no table knows, with central European rules (as some exporters write them). */
export function customCentralEurope(tzid: string, extra: string[] = []): string[] {
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    ...extra,
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
}

/** A zone no IANA zone has: +01:30 in winter, +02:30 from the first Sunday of May to the first of September. */
export const INVENTED_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Invented Time',
  'BEGIN:STANDARD',
  'DTSTART:20000903T030000',
  'TZOFFSETFROM:+0230',
  'TZOFFSETTO:+0130',
  'RRULE:FREQ=YEARLY;BYMONTH=9;BYDAY=1SU',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:20000507T020000',
  'TZOFFSETFROM:+0130',
  'TZOFFSETTO:+0230',
  'RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=1SU',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

/** A VCALENDAR around the given lines, CRLF line ends. */
export function calendarText(lines: string[], head: string[] = []): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//test//EN', ...head, ...lines, 'END:VCALENDAR', ''].join('\r\n');
}
