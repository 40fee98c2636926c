// A change of CALENDAR_EMBED_ORIGINS (pages.md, "On other sites"): two instances of one
// calendar (one database) with different settings stand for the service before and after the
// change. Their embeds have the same bodies and tags, yet each answers with its own framing:
// fresh, from its response cache, and on a 304 to a tag the other handed out, so that a browser
// or proxy that revalidates what it kept gets the policy in force now.
import type { Response } from 'supertest';
import { createEvent } from '../../support/api';
import { http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import type { TestApp } from '../../support/test-app';

const frameAncestors = (res: Response) => /frame-ancestors ([^;]+)/.exec(String(res.headers['content-security-policy']))?.[1];

describe('a change of CALENDAR_EMBED_ORIGINS', () => {
  let before: TestApp;
  let after: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({
      a: before,
      b: after,
      close,
    } = await twoInstances(
      {},
      { a: { CALENDAR_EMBED_ORIGINS: 'https://old-partner.example' }, b: { CALENDAR_EMBED_ORIGINS: 'https://new-partner.example http://localhost:8080' } },
    ));
    const admin = await before.userHeader('embed-admin', 'administrator');
    await createEvent(before, admin.authorization, {
      title: 'Summer Fair',
      status: 'publish',
      start_date: '2030-06-14 10:00:00',
      end_date: '2030-06-14 18:00:00',
    });
  });
  afterAll(async () => close?.());

  it("each instance answers with its own framing, fresh, cached and on a 304 to the other's tag", async () => {
    // A month that holds no "today": its body depends on the data only, the same on both.
    const path = '/events/embed/month/2030-06/?theme=dark';
    const seen: Record<string, unknown> = {};
    const old = await http(before).get(path).expect(200);
    expect(old.text).toContain('Summer Fair');
    seen.before = frameAncestors(old);
    seen['before, cached'] = frameAncestors(await http(before).get(path).expect(200));
    const fresh = await http(after).get(path).expect(200);
    seen.after = frameAncestors(fresh);
    seen['after, cached'] = frameAncestors(await http(after).get(path).expect(200));
    expect(fresh.headers.etag).toBe(old.headers.etag);
    const revalidated = await http(after)
      .get(path)
      .set('If-None-Match', old.headers.etag as string);
    seen['after, 304 to the tag kept from before'] = [revalidated.status, frameAncestors(revalidated), revalidated.headers['x-frame-options']];
    seen['before, again'] = frameAncestors(await http(before).get(path).expect(200));
    expect(seen).toEqual({
      before: 'https://old-partner.example',
      'before, cached': 'https://old-partner.example',
      after: 'https://new-partner.example http://localhost:8080',
      'after, cached': 'https://new-partner.example http://localhost:8080',
      'after, 304 to the tag kept from before': [304, 'https://new-partner.example http://localhost:8080', undefined],
      'before, again': 'https://old-partner.example',
    });
  });
});
