import { Actor, Role, ROLES } from './roles';
import { assertCan, can, canDelete, canEdit, canRead, Capability, OwnedItem } from './capabilities';

const actor = (role: Role, id = 10): Actor => ({ id, login: role, role });
const own = (status: string, statusBeforeTrash?: string): OwnedItem => ({ authorId: 10, status, statusBeforeTrash });
const others = (status: string): OwnedItem => ({ authorId: 99, status });

/** The role table of spec auth.md §2, row by row: administrator, editor, author, contributor, subscriber. */
const TABLE: [Capability, boolean[]][] = [
  ['create_items', [true, true, true, true, false]],
  ['publish_items', [true, true, true, false, false]],
  ['read_others_unpublished', [true, true, false, false, false]],
  ['read_private', [true, true, false, false, false]],
  ['edit_others', [true, true, false, false, false]],
  ['delete_others', [true, true, false, false, false]],
  ['assign_author', [true, true, false, false, false]],
  ['upload_files', [true, true, true, false, false]],
  ['manage_categories', [true, true, true, false, false]],
  ['manage_tags', [true, true, false, false, false]],
  ['manage_webhooks', [true, false, false, false, false]],
  ['manage_sources', [true, false, false, false, false]],
  ['unfiltered_html', [true, true, false, false, false]],
];

describe('capability table', () => {
  it.each(TABLE)('%s', (capability, expected) => {
    expect(ROLES.map((role) => can(actor(role), capability))).toEqual(expected);
    expect(can(null, capability)).toBe(false);
  });

  it('assertCan answers 401 to anonymous callers and 403 to authenticated ones', () => {
    expect(() => assertCan(null, 'create_items')).toThrow(expect.objectContaining({ code: 'rest_forbidden', status: 401 }));
    expect(() => assertCan(actor('subscriber'), 'create_items')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => assertCan(actor('author'), 'create_items', 'manage_tags')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => assertCan(actor('author'), 'create_items', 'manage_categories')).not.toThrow();
  });
});

describe('owned items (events, venues, organizers)', () => {
  it('contributors edit and delete their own unpublished items only', () => {
    const c = actor('contributor');
    for (const status of ['draft', 'pending', 'private']) {
      expect(canEdit(c, own(status))).toBe(true);
      expect(canDelete(c, own(status))).toBe(true);
    }
    for (const status of ['publish', 'future']) {
      expect(canEdit(c, own(status))).toBe(false);
      expect(canDelete(c, own(status))).toBe(false);
    }
    expect(canEdit(c, others('draft'))).toBe(false);
  });

  it('judges a trashed item by the status it had before', () => {
    expect(canEdit(actor('contributor'), own('trash', 'publish'))).toBe(false);
    expect(canEdit(actor('contributor'), own('trash', 'draft'))).toBe(true);
  });

  it('authors edit all their own items but not others', () => {
    expect(canEdit(actor('author'), own('publish'))).toBe(true);
    expect(canDelete(actor('author'), own('future'))).toBe(true);
    expect(canEdit(actor('author'), others('draft'))).toBe(false);
  });

  it('editors and administrators edit and delete everything', () => {
    for (const role of ['editor', 'administrator'] as Role[]) {
      expect(canEdit(actor(role), others('publish'))).toBe(true);
      expect(canDelete(actor(role), others('private'))).toBe(true);
    }
  });

  it('subscribers and anonymous callers edit nothing', () => {
    expect(canEdit(actor('subscriber'), own('draft'))).toBe(false);
    expect(canEdit(null, others('draft'))).toBe(false);
  });

  it('reads follow auth.md §2', () => {
    expect(canRead(null, others('publish'))).toBe(true);
    expect(canRead(null, others('draft'))).toBe(false);
    expect(canRead(actor('subscriber'), others('private'))).toBe(false);
    expect(canRead(actor('contributor'), own('draft'))).toBe(true);
    expect(canRead(actor('author'), others('pending'))).toBe(false);
    expect(canRead(actor('author'), others('private'))).toBe(false);
    expect(canRead(actor('editor'), others('private'))).toBe(true);
    expect(canRead(actor('editor'), others('future'))).toBe(true);
  });
});
