import { propertyLine } from './property-line';

describe('propertyLine (RFC 5545 §3.1)', () => {
  it('writes the name, its parameters and the value as given', () => {
    expect(propertyLine({ name: 'RRULE', value: 'FREQ=WEEKLY;COUNT=10' })).toBe('RRULE:FREQ=WEEKLY;COUNT=10');
    expect(propertyLine({ name: 'exdate', params: { tzid: 'Europe/Paris' }, value: '20300101T100000' })).toBe('EXDATE;TZID=Europe/Paris:20300101T100000');
  });

  it('quotes parameter values holding a separator and drops what cannot be quoted', () => {
    expect(propertyLine({ name: 'X-SEATS', params: { 'X-NOTE': 'a;b:"c"' }, value: '5' })).toBe('X-SEATS;X-NOTE="a;b:c":5');
  });

  it('keeps a value on its line: line breaks are escaped, odd characters leave the name', () => {
    expect(propertyLine({ name: 'X-A B\r\nEVIL', value: 'one\r\nEND:VEVENT' })).toBe('X-ABEVIL:one\\nEND:VEVENT');
  });
});
