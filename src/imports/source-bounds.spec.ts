import { foreignInput, TEXT_OF } from './source-bounds';

// Every text field of every kind, as its feature declares it (events, venues, organizers,
// taxonomies), is cleaned by its rule: a record from another site is cleaned as the API cleans
// the input of a role without unfiltered HTML.

describe('foreignInput: every text field of every kind by its rule (README §8)', () => {
  const payload = '<b>Bold</b> <script>alert(1)</script><img src=x onerror=alert(1)>';
  const fields = Object.entries(TEXT_OF).flatMap(([kind, text]) =>
    Object.entries(text.rules).map(([field, rule]) => [kind as keyof typeof TEXT_OF, field, rule] as const),
  );

  it.each(fields)('%s.%s (%s)', (kind, field, rule) => {
    const cleaned = foreignInput(kind, { [field]: payload })[field];
    expect(cleaned).not.toMatch(/<script|onerror/i);
    // HTML fields keep formatting (an image without its handler); plain fields keep no tag at all.
    expect(cleaned).toBe(rule === 'html' ? '<b>Bold</b> <img src="x" />' : 'Bold ');
  });

  it("leaves fields that are not text as they are, cleans the texts of a list, and an event's nested venue and organizers by their own rules", () => {
    const out = foreignInput('event', { start_date: payload, cost: [payload, 3], venue: { address: payload }, organizer: [{ email: payload }] });
    expect(out).toEqual({ start_date: payload, cost: ['Bold ', 3], venue: { address: 'Bold ' }, organizer: [{ email: 'Bold ' }] });
  });

  it('names every plain-text field of venues and organizers that resources.md lists', () => {
    expect(Object.keys(TEXT_OF.venue.rules)).toEqual(
      expect.arrayContaining(['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince']),
    );
    expect(Object.keys(TEXT_OF.organizer.rules)).toEqual(expect.arrayContaining(['phone', 'website', 'email']));
    expect(Object.keys(TEXT_OF.event.rules)).toEqual(expect.arrayContaining(['title', 'cost', 'website']));
  });
});
