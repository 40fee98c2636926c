// The image probe through the API: private addresses refused by default, the
// probe only after the item and the permission are checked, nothing written when it fails.
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { createEvent, eventInput, makeUsers } from '../../support/api';
import { ImageHost, startImageHost } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';

const mediaRows = async (t: TestApp) => Number(((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM media')) as { n: number | string }[])[0].n);

describe('image URLs: outbound requests', () => {
  let images: ImageHost;
  beforeAll(async () => {
    images = await startImageHost(); // on 127.0.0.1
  });
  afterAll(async () => images?.close());
  beforeEach(() => (images.hits.length = 0));

  describe('by default (CALENDAR_ALLOW_PRIVATE_URLS off)', () => {
    let t: TestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createTestApp();
      admin = (await makeUsers(t)).admin.authorization;
    });
    afterAll(async () => t?.close());

    it.each(['BASE/photo.jpg', 'http://localhost:PORT/photo.jpg', 'http://169.254.169.254/latest/meta-data/photo.jpg'])(
      'an image at %s is refused (400 image), the address never reached, nothing written',
      async (pattern) => {
        const url = pattern.replace('BASE', images.base).replace('PORT', new URL(images.base).port);
        const before = await mediaRows(t);
        expectInvalidParams(
          await http(t, admin)
            .post(`${API}/events`)
            .send(eventInput({ image: url })),
          'image',
        );
        expectInvalidParams(await http(t, admin).post(`${API}/venues`).send({ venue: 'Probe hall', image: url }), 'image');
        expect(images.hits).toEqual([]);
        expect(await mediaRows(t)).toBe(before);
      },
    );
  });

  describe('with CALENDAR_ALLOW_PRIVATE_URLS=on', () => {
    let t: TestApp;
    let users: Awaited<ReturnType<typeof makeUsers>>;
    beforeAll(async () => {
      t = await createTestApp({ CALENDAR_ALLOW_PRIVATE_URLS: 'on' });
      users = await makeUsers(t);
    });
    afterAll(async () => t?.close());

    it('a local image is accepted', async () => {
      const res = await http(t, users.admin.authorization)
        .post(`${API}/events`)
        .send(eventInput({ image: `${images.base}/ok.jpg` }));
      expectStatus(res, 201);
      expect(res.body.image.url).toBe(`${images.base}/ok.jpg`);
    });

    it('an update of a missing event answers 404 before any probe, and writes nothing', async () => {
      const before = await mediaRows(t);
      expectError(
        await http(t, users.admin.authorization)
          .patch(`${API}/events/999999`)
          .send({ image: `${images.base}/missing-event.jpg` }),
        404,
        'rest-event-not-found',
      );
      expect(images.hits).toEqual([]);
      expect(await mediaRows(t)).toBe(before);
    });

    it('a caller who may not edit the event gets 403 before any probe', async () => {
      const event = await createEvent(t, users.admin.authorization);
      expectError(
        await http(t, users.author.authorization)
          .patch(`${API}/events/${event.id}`)
          .send({ image: `${images.base}/not-yours.jpg` }),
        403,
        'rest_forbidden',
      );
      expect(images.hits).toEqual([]);
    });

    it('a URL that is no image: 400, no event, no media row', async () => {
      const before = await mediaRows(t);
      const title = 'Never stored with a page for an image';
      expectInvalidParams(
        await http(t, users.admin.authorization)
          .post(`${API}/events`)
          .send(eventInput({ title, image: `${images.base}/page.html` })),
        'image',
      );
      expect(await mediaRows(t)).toBe(before);
      expect((await http(t, users.admin.authorization).get(`${API}/events?search=${encodeURIComponent(title)}`)).body.total ?? 0).toBe(0);
    });
  });
});
