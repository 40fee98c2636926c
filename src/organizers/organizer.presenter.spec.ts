import type { LinkedPresentContext } from '../linked-items/linked-items';
import { presentOrganizer } from './organizer.presenter';
import { OrganizerEntity } from './organizer.entity';

const base: OrganizerEntity = Object.assign(new OrganizerEntity(), {
  id: 41,
  authorId: 1,
  status: 'draft',
  statusBeforeTrash: null,
  dateUtc: '2025-01-10 09:05:00',
  modifiedUtc: '2025-01-10 09:05:00',
  name: 'Hudson Arts',
  slug: 'hudson-arts',
  description: '',
  excerpt: '',
  phone: '',
  website: '',
  email: 'info@hudsonarts.example',
  imageId: null,
});
const ctx: LinkedPresentContext = { baseUrl: 'https://example.org/cal', timezone: 'UTC', nowUtc: '2025-06-01 00:00:00', jsonLd: false };

describe('presentOrganizer (spec resources.md §3, §7)', () => {
  it('omits empty keys; only id and the global ids are guaranteed', () => {
    expect(presentOrganizer(base, ctx)).toStrictEqual({
      id: 41,
      author: '1',
      status: 'draft',
      date: '2025-01-10 09:05:00',
      date_utc: '2025-01-10 09:05:00',
      modified: '2025-01-10 09:05:00',
      modified_utc: '2025-01-10 09:05:00',
      url: 'https://example.org/cal/organizer/hudson-arts/',
      organizer: 'Hudson Arts',
      slug: 'hudson-arts',
      email: 'info@hudsonarts.example',
      global_id: 'example.org/cal?id=41',
      global_id_lineage: ['example.org/cal?id=41'],
    });
  });

  it('puts json_ld after email: a Person whose url and sameAs are the website', () => {
    const json = presentOrganizer(
      { ...base, description: '<p>Community <em>arts</em> collective.</p>', phone: '+1 518', website: 'https://hudsonarts.example' },
      { ...ctx, jsonLd: true },
    );
    expect(Object.keys(json)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'description',
      'slug',
      'phone',
      'website',
      'email',
      'json_ld',
      'global_id',
      'global_id_lineage',
    ]);
    expect(json.json_ld).toStrictEqual({
      '@type': 'Person',
      name: 'Hudson Arts',
      description: 'Community arts collective.',
      url: 'https://hudsonarts.example',
      telephone: '+1 518',
      email: 'info@hudsonarts.example',
      sameAs: 'https://hudsonarts.example',
    });
  });
});
