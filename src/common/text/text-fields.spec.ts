import { cleanTextField, TEXT_FIELDS, TextKind } from './text-fields';

describe('cleanTextField: one rule for every text field (README §8)', () => {
  const payload = '<b>Bold</b> <script>alert(1)</script><img src=x onerror=alert(1)>';
  const fields = Object.entries(TEXT_FIELDS).flatMap(([kind, rules]) => Object.entries(rules).map(([field, rule]) => [kind as TextKind, field, rule] as const));

  it.each(fields)('%s.%s (%s) is cleaned for callers without unfiltered HTML', (kind, field, rule) => {
    const cleaned = cleanTextField(kind, field, payload, false);
    expect(cleaned).not.toMatch(/<script|onerror/i);
    // HTML fields keep formatting (an image without its handler); plain fields keep no tag at all.
    expect(cleaned).toBe(rule === 'html' ? '<b>Bold</b> <img src="x" />' : 'Bold ');
  });

  it.each(fields)('%s.%s is stored as given by callers with unfiltered HTML', (kind, field) => {
    expect(cleanTextField(kind, field, payload, true)).toBe(payload);
  });

  it('passes fields that are not text unchanged', () => {
    expect(cleanTextField('event', 'start_date', payload, false)).toBe(payload);
  });

  it('names every plain-text field of venues and organizers that resources.md lists', () => {
    expect(Object.keys(TEXT_FIELDS.venue)).toEqual(
      expect.arrayContaining(['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince']),
    );
    expect(Object.keys(TEXT_FIELDS.organizer)).toEqual(expect.arrayContaining(['phone', 'website', 'email']));
    expect(Object.keys(TEXT_FIELDS.event)).toEqual(expect.arrayContaining(['title', 'cost', 'website']));
  });
});
