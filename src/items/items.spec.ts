import { DateTime } from 'luxon';
import type { Actor, Role } from '../common/auth';
import { listVisibility } from './list-visibility';
import { siteHost, omitEmpty } from './presentation';
import { effectiveStatus, resolveWriteStatus } from './statuses';

const who = (role: Role): Actor => ({ id: 5, login: role, role });
const NOW = DateTime.fromISO('2025-03-12T12:00:00Z', { zone: 'UTC' });
const PAST = '2025-03-01 10:00:00';
const FUTURE = '2025-04-01 10:00:00';

describe('resolveWriteStatus (spec endpoints.md §3)', () => {
  it.each([
    // role, requested, current, date, expected
    ['editor', undefined, undefined, PAST, 'publish'],
    ['author', undefined, undefined, PAST, 'publish'],
    ['contributor', undefined, undefined, PAST, 'draft'],
    ['contributor', 'publish', undefined, PAST, 'pending'],
    ['contributor', 'future', undefined, FUTURE, 'pending'],
    ['contributor', 'private', undefined, PAST, 'pending'],
    ['contributor', 'draft', undefined, PAST, 'draft'],
    ['editor', 'private', undefined, PAST, 'private'],
    ['editor', 'publish', undefined, FUTURE, 'future'],
    ['editor', undefined, undefined, FUTURE, 'future'],
    ['editor', 'future', undefined, PAST, 'publish'],
    ['editor', undefined, 'draft', PAST, 'draft'],
    ['contributor', undefined, 'pending', PAST, 'pending'],
    ['editor', undefined, 'trash', PAST, 'trash'],
  ] as [Role, string | undefined, string | undefined, string, string][])('%s asking %p (was %p) → %p', (role, requested, current, date, expected) => {
    expect(resolveWriteStatus(who(role), requested, current, date, NOW)).toBe(expected);
  });

  it('treats a passed scheduled item as published', () => {
    expect(effectiveStatus('future', '2025-03-12 11:00:00', '2025-03-12 12:00:00')).toBe('publish');
    expect(effectiveStatus('future', '2025-03-12 13:00:00', '2025-03-12 12:00:00')).toBe('future');
    expect(effectiveStatus('draft', '2025-03-12 11:00:00', '2025-03-12 12:00:00')).toBe('draft');
  });
});

describe('listVisibility (spec auth.md §4)', () => {
  it('anonymous callers and subscribers see published items only, and may only ask for publish', () => {
    expect(listVisibility(null, undefined)).toEqual({ statuses: ['publish'] });
    expect(listVisibility(who('subscriber'), 'publish')).toEqual({ statuses: ['publish'] });
    for (const status of ['draft', 'publish,draft', ['publish', 'draft'], '']) {
      expect(() => listVisibility(null, status)).toThrow(
        expect.objectContaining({ code: 'rest_invalid_param', data: expect.objectContaining({ params: { status: expect.any(String) } }) }),
      );
    }
  });

  it('writers see every status but trash by default', () => {
    expect(listVisibility(who('editor'), undefined)).toEqual({ statuses: ['publish', 'future', 'draft', 'pending', 'private'] });
    expect(listVisibility(who('editor'), 'trash, draft')).toEqual({ statuses: ['trash', 'draft'] });
    expect(() => listVisibility(who('editor'), 'foo, bar, publish')).toThrow(expect.objectContaining({ code: 'rest_invalid_param' }));
  });

  it('authors and contributors see others’ items only when published', () => {
    expect(listVisibility(who('author'), 'draft')).toEqual({ statuses: ['draft'], ownerId: 5 });
    expect(listVisibility(who('contributor'), undefined).ownerId).toBe(5);
  });
});

describe('presentation helpers', () => {
  it.each([
    ['http://127.0.0.1:3000', '127.0.0.1'],
    ['https://example.org/cal', 'example.org/cal'],
    ['https://example.org:8443/cal/', 'example.org/cal'],
  ])('siteHost(%s) = %s', (url, host) => expect(siteHost(url)).toBe(host));

  it('omits empty values but keeps the named keys, in order', () => {
    expect(omitEmpty({ id: 1, a: '', b: 'x', c: false, d: 0, e: '0', f: [], g: null, show_map: false }, ['id', 'show_map'])).toEqual({
      id: 1,
      b: 'x',
      show_map: false,
    });
    expect(Object.keys(omitEmpty({ z: 1, a: 2 }, []))).toEqual(['z', 'a']);
  });
});
