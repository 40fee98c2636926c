import fc from 'fast-check';
import { foldLines as libraryFold } from 'ical-generator';
import { foldLines } from './fold';

describe('foldLines', () => {
  it.each([
    ['short', 'SUMMARY:Jazz'],
    ['ASCII at the limit', `DESCRIPTION:${'x'.repeat(62)}`],
    ['ASCII past it', `DESCRIPTION:${'x'.repeat(200)}`],
    ['two-octet letters', `SUMMARY:${'é'.repeat(100)}`],
    ['three-octet signs', `SUMMARY:${'€'.repeat(60)}`],
    ['emoji (surrogate pairs)', `SUMMARY:${'🎷'.repeat(40)}`],
    ['a mix across a break', `SUMMARY:${'a'.repeat(65)}€€€é🎷${'b'.repeat(80)}`],
    ['several lines', `A:${'x'.repeat(100)}\r\nB:short\r\nC:${'y'.repeat(160)}`],
    ['an empty line', ''],
    ['lone surrogates', `SUMMARY:${'\ud800\ud800x\udc00'.repeat(30)}\ud800`],
  ])('folds %s as ical-generator does', (_, text) => {
    expect(foldLines(text)).toBe(libraryFold(text));
  });

  it('never writes a line over 75 octets', () => {
    const folded = foldLines(`DESCRIPTION:${'ab€🎷é'.repeat(300)}`);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'ab€🎷é'.repeat(300)}`);
  });

  it('agrees with ical-generator on any text', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', ' ', ',', 'é', '€', '🎷', '\r\n', '\n'), fc.string({ unit: 'binary' })), maxLength: 400 });
    fc.assert(fc.property(text, (s) => foldLines(s) === libraryFold(s)));
  });
});
