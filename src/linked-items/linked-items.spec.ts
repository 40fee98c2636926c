import { invalidParam, invalidParams, WpError } from '../common/errors';
import { Dialect } from '../database/dialect';
import { globalIdFields, omitEmpty } from '../items';
import { finishLinkedItem, jsonLdDescription, type LinkedItemEntity, linkedItemErrors, ParamChecks, searchCondition } from './linked-items';
import { isUrlOrEmpty } from '../common/params';

describe('searchCondition (spec endpoints.md §5.1.1)', () => {
  it('ORs the columns, each needing every fragment, with escaped LIKE patterns', () => {
    const [sql, params] = searchCondition('v', ['name', 'city'], ['Temple', '50%'], new Dialect('sqlite'));
    expect(sql).toBe(
      "((LOWER(v.name) LIKE :liSearch0 ESCAPE '!' AND LOWER(v.name) LIKE :liSearch1 ESCAPE '!') OR " +
        "(LOWER(v.city) LIKE :liSearch0 ESCAPE '!' AND LOWER(v.city) LIKE :liSearch1 ESCAPE '!'))",
    );
    expect(params).toEqual({ liSearch0: '%temple%', liSearch1: '%50!%%' });
  });
});

describe('ParamChecks', () => {
  it('reports every invalid parameter together, before any refusal', async () => {
    const checks = new ParamChecks();
    await checks.run(() => {
      throw new WpError('rest_cannot_edit_others', 'no', 403);
    });
    await checks.run(() => {
      throw invalidParam('author', 'bad author');
    });
    checks.fail('date', 'bad date');
    expect(await checks.run(() => 7)).toBe(7);
    expect(() => checks.settle(invalidParams)).toThrow(
      expect.objectContaining({ code: 'rest_invalid_param', data: { params: { author: 'bad author', date: 'bad date' }, details: {} } }),
    );
  });

  it('throws the refusal when every parameter is valid, and lets unexpected errors through', async () => {
    const checks = new ParamChecks();
    await checks.run(() => {
      throw new WpError('rest_cannot_edit_others', 'no', 403);
    });
    expect(() => checks.settle(invalidParams)).toThrow(expect.objectContaining({ status: 403 }));
    await expect(new ParamChecks().run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(() => new ParamChecks().settle(invalidParams)).not.toThrow();
  });
});

describe('linkedItemErrors (spec errors.md)', () => {
  it('gives each code its status', () => {
    const e = linkedItemErrors('venue', {
      notAccessible: 'a',
      inTrash: 'b',
      pageNotFound: 'c',
      couldNotCreate: 'd',
      couldNotUpdate: 'e',
      couldNotDelete: 'f',
    });
    expect(
      [e.notAccessible(), e.inTrash(), e.pageNotFound(), e.couldNotCreate(), e.couldNotUpdate(), e.couldNotDelete()].map((x) => [x.code, x.status]),
    ).toEqual([
      ['a', 403],
      ['b', 410],
      ['c', 404],
      ['d', 400],
      ['e', 400],
      ['f', 500],
    ]);
    expect(e.pageNotFound().message).toBe('This page of venues does not exist.');
  });
});

describe('jsonLdDescription (spec resources.md §7)', () => {
  it('takes the excerpt, else the first 55 words of the description, as plain text', () => {
    expect(jsonLdDescription({ excerpt: '<p>Short &amp; sweet</p>', description: 'ignored' })).toBe('Short & sweet');
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    expect(jsonLdDescription({ excerpt: '', description: `<p>${long}</p>` })).toBe(long.split(' ').slice(0, 55).join(' '));
    expect(jsonLdDescription({ excerpt: '', description: '' })).toBe('');
  });
});

describe('isUrlOrEmpty (website)', () => {
  it.each(['', 'https://example.org', 'http://127.0.0.1:8080/x?y=1', 'ftp://files.example'])('accepts %p', (v) => expect(isUrlOrEmpty(v)).toBe(true));
  it.each(['foo', '/relative', 'mailto:a@b.c', 'javascript:alert(1)', 'javascript://x/%0Aalert(1)', 'data://x/text', 3, null])('rejects %p', (v) =>
    expect(isUrlOrEmpty(v)).toBe(false),
  );
});

describe('finishLinkedItem', () => {
  it('finishLinkedItem gives what the spreads gave: head keys first (body values win), then body keys, empty ones out, the global ids last', () => {
    const item = { id: 7 } as LinkedItemEntity;
    const cases: [Record<string, unknown>, Record<string, unknown>, string[]][] = [
      [
        { id: 7, author: '1', venue: 'Hall', description: '', image: false },
        { address: '1 Main', city: '', show_map: false, json_ld: { a: 1 } },
        ['id', 'show_map'],
      ],
      // body overrides a head key in the head's place, with an empty value (left out) and with a value
      [{ id: 7, a: 'head', b: 'head', c: 'x' }, { b: '', a: 'body', d: [], e: '0', f: undefined }, ['id', 'e']],
      [{}, {}, []],
    ];
    for (const [head, body, keep] of cases) {
      const spread = { ...omitEmpty({ ...head, ...body }, keep), ...globalIdFields('https://example.org/cal', 7) };
      const built = finishLinkedItem(head, body, keep, item, 'https://example.org/cal');
      expect(built).toEqual(spread);
      expect(Object.keys(built)).toEqual(Object.keys(spread));
    }
  });
});
