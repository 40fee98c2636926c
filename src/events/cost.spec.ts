import { normaliseNumber, offerPrice, parseCost } from './cost';

type Row = [input: string[], cost: string, values: string[], symbol: string, position: string];

describe('parseCost', () => {
  it.each<Row>([
    // the table of resources.md §6, row by row
    [['20$'], '20$', ['20'], '$', 'postfix'],
    [['$15'], '$15', ['15'], '$', 'prefix'],
    [['0$', '20$', '30$'], 'Free \u2013 30$', ['0', '20', '30'], '$', 'postfix'],
    [['0'], 'Free', ['0'], '', ''],
    [['Donation'], 'Donation', ['Donation'], '', ''],
    [['\u20ac10,50'], '\u20ac10,50', ['10.50'], '\u20ac', 'prefix'],
    // ranges inside one string
    [['$10 - $25'], '$10 \u2013 $25', ['10', '25'], '$', 'prefix'],
    [['$10-$25'], '$10 \u2013 $25', ['10', '25'], '$', 'prefix'],
    [['10\u20ac \u2013 25\u20ac'], '10\u20ac \u2013 25\u20ac', ['10', '25'], '\u20ac', 'postfix'],
    [['$10 to $25'], '$10 \u2013 $25', ['10', '25'], '$', 'prefix'],
    [['$25 / $10 / $10'], '$10 \u2013 $25', ['10', '25'], '$', 'prefix'],
    [['0 - 30$'], 'Free \u2013 30', ['0', '30'], '', ''],
    // several strings: sorted, duplicates removed, min and max shown
    [['30$', '20$', '20$'], '20$ \u2013 30$', ['20', '30'], '$', 'postfix'],
    [['$15', '$15.00'], '$15', ['15'], '$', 'prefix'],
    [['$5', '$10 - $25'], '$5 \u2013 $25', ['5', '10', '25'], '$', 'prefix'],
    [['$100', '$9.99'], '$9.99 \u2013 $100', ['9.99', '100'], '$', 'prefix'],
    // symbol kept only when the same, on the same side, for every number
    [['$10', '\u20ac20'], '10 \u2013 20', ['10', '20'], '', ''],
    [['$10', '20$'], '10 \u2013 20', ['10', '20'], '', ''],
    [['0', '$20'], 'Free \u2013 20', ['0', '20'], '', ''],
    // symbols that are words or carry spaces
    [['10 EUR'], '10EUR', ['10'], 'EUR', 'postfix'],
    [['\u20ac 10,50'], '\u20ac10,50', ['10.50'], '\u20ac', 'prefix'],
    [['US$ 12'], 'US$12', ['12'], 'US$', 'prefix'],
    // the symbol is the whole remainder on its side (§6); with text on both sides, the side
    // touching the number, else the prefix
    [['10$ each'], '10$ each', ['10'], '$ each', 'postfix'],
    [['$10 per person'], '$10', ['10'], '$', 'prefix'],
    [['Adults 10$'], '10$', ['10'], '$', 'postfix'],
    [['from $ 10 up'], 'from $10', ['10'], 'from $', 'prefix'],
    // thousands and decimal separators (rule at normaliseNumber)
    [['$1,000'], '$1,000', ['1000'], '$', 'prefix'],
    [['1.000,50 \u20ac'], '1.000,50\u20ac', ['1000.50'], '\u20ac', 'postfix'],
    [['$1,000.50'], '$1,000.50', ['1000.50'], '$', 'prefix'],
    [['$1,000,000'], '$1,000,000', ['1000000'], '$', 'prefix'],
    [['$999', '$1,000'], '$999 \u2013 $1,000', ['999', '1000'], '$', 'prefix'],
    // zero in any spelling is Free
    [['0.00$'], 'Free', ['0.00'], '$', 'postfix'],
    [['$0', '$0.00'], 'Free', ['0'], '$', 'prefix'],
    // text
    [['Free'], 'Free', ['Free'], '', ''],
    [['  Donation  '], 'Donation', ['Donation'], '', ''],
    [['Donation', 'Pay what you can'], 'Donation, Pay what you can', ['Donation', 'Pay what you can'], '', ''],
    [['Donation', '$10'], '$10', ['10', 'Donation'], '$', 'prefix'],
    // no cost
    [[], '', [], '', ''],
    [[''], '', [], '', ''],
    [['  ', ''], '', [], '', ''],
  ])('%j → %j %j %j %j', (input, cost, values, symbol, position) => {
    expect(parseCost(input)).toEqual({
      cost,
      cost_details: { currency_symbol: symbol, currency_code: '', currency_position: position, values },
    });
  });

  it('uses an EN DASH (U+2013) between single spaces', () => {
    expect(parseCost(['0$', '20$', '30$']).cost).toBe('Free \u2013 30$');
    expect(parseCost(['0$', '20$', '30$']).cost.codePointAt(5)).toBe(0x2013);
  });
});

describe('offerPrice', () => {
  it.each([
    [['20$'], '20'],
    [['$15'], '15'],
    [['0$', '20$', '30$'], '0 \u2013 30'],
    [['0'], '0'],
    [['Donation'], 'Donation'],
    [['\u20ac10,50'], '10,50'],
    [['$10 - $25'], '10 \u2013 25'],
    [['$1,000'], '1,000'],
    [[], ''],
    [[''], ''],
  ])('%j → %j', (input, expected) => {
    expect(offerPrice(input)).toBe(expected);
  });
});

describe('normaliseNumber', () => {
  it.each([
    // [written, normalised]
    ['0', '0'],
    ['20', '20'],
    ['007', '7'],
    ['10.5', '10.5'],
    ['10,50', '10.50'],
    ['0,500', '0.500'],
    ['0.5', '0.5'],
    ['1234.567', '1234.567'],
    ['1,000', '1000'],
    ['1.000', '1000'],
    ['12.500', '12500'],
    ['999,999', '999999'],
    ['1,000,000', '1000000'],
    ['1.000.000', '1000000'],
    ['1,000.50', '1000.50'],
    ['1.000,50', '1000.50'],
    ['1.234.567,89', '1234567.89'],
    ['1,234,567.89', '1234567.89'],
  ])('%j → %j', (written, normalised) => {
    expect(normaliseNumber(written)).toEqual({ normalised, value: Number(normalised) });
  });
});
