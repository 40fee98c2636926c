import { cleanTextField, columnOverflow, type TextFields, varcharLimit } from './text-fields';

// The mechanism, with a kind declared here; each feature's own declaration is exercised for
// every one of its fields by src/imports/source-bounds.spec.ts.
const KIND: TextFields = { rules: { title: 'plain', body: 'html' }, varchars: { title: 10 } };

describe('cleanTextField: one rule for every text field (README §8)', () => {
  const payload = '<b>Bold</b> <script>alert(1)</script><img src=x onerror=alert(1)>';

  it('cleans an HTML field of anything active, and a plain-text field of every tag, for callers without unfiltered HTML', () => {
    expect(cleanTextField(KIND, 'body', payload, false)).toBe('<b>Bold</b> <img src="x" />');
    expect(cleanTextField(KIND, 'title', payload, false)).toBe('Bold ');
  });

  it('stores the text as given for callers with unfiltered HTML', () => {
    expect(cleanTextField(KIND, 'body', payload, true)).toBe(payload);
    expect(cleanTextField(KIND, 'title', payload, true)).toBe(payload);
  });

  it('passes fields that are not text unchanged', () => {
    expect(cleanTextField(KIND, 'start_date', payload, false)).toBe(payload);
  });

  it('makes lone surrogates well formed, whoever writes', () => {
    expect(cleanTextField(KIND, 'start_date', 'a\ud800b', true)).toBe('a\ufffdb');
  });
});

describe('columnOverflow', () => {
  it('counts the characters of a varchar field as the database does (code points)', () => {
    expect(varcharLimit(KIND, 'title')).toBe(10);
    expect(columnOverflow(KIND, 'title', '😀'.repeat(10))).toBeNull();
    expect(columnOverflow(KIND, 'title', 'x'.repeat(11))).toBe('Must be at most 10 characters long.');
  });

  it('counts the bytes of any other field against a text column', () => {
    expect(varcharLimit(KIND, 'body')).toBeUndefined();
    expect(columnOverflow(KIND, 'body', 'é'.repeat(32_767))).toBeNull();
    expect(columnOverflow(KIND, 'body', 'é'.repeat(32_768))).toBe('Must be at most 65535 bytes long.');
  });
});
