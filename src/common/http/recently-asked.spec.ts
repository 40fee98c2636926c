import { RecentlyAsked } from './response-cache';

describe('RecentlyAsked (which URLs to keep answers of, response-cache.ts)', () => {
  it('a URL counts as asked before within its second and the next, not later', () => {
    const recent = new RecentlyAsked();
    expect(recent.askedBefore('/changes?since=s1.MTA', 100)).toBe(false);
    expect(recent.askedBefore('/changes?since=s1.MTA', 100)).toBe(true);
    expect(recent.askedBefore('/changes?since=s1.MTA', 101)).toBe(true);
    expect(recent.askedBefore('/changes?since=s1.MTA', 103)).toBe(false);
    expect(recent.askedBefore('/changes?since=s1.MTA', 103)).toBe(true);
  });

  it('other URLs are told apart', () => {
    const recent = new RecentlyAsked();
    const urls = Array.from({ length: 1000 }, (_, i) => `/calendar/events/v1/changes?per_page=100&since=s1.${i}`);
    for (const url of urls) expect(recent.askedBefore(url, 7)).toBe(false);
    // Asked again in the same second: nearly all remembered (slots shared by two URLs forget the first).
    const again = urls.filter((url) => recent.askedBefore(url, 7)).length;
    expect(again).toBeGreaterThan(950);
  });
});
