import { frozenBackfillChangeLog, frozenFillChangeLogStates } from './frozen-change-log';
import { frozenSearchDocument } from './frozen-search-document';
import { frozenShadowNameKey, frozenTermNameKey } from './frozen-term-name-key';

/**
 * The frozen helpers of old migrations (docs/architecture.md, "Migrations are frozen
 * history") against fixed values: what the live functions gave when the copies were made. They
 * are never compared with the live code, which is free to change; a failure here means an old
 * migration would now do something else.
 */

/** A runner that writes down each statement and answers the SELECTs whose text includes a key. */
function recorder(answers: Record<string, unknown[]> = {}) {
  const statements: { sql: string; params?: unknown[] }[] = [];
  const db = {
    query: async (sql: string, params?: unknown[]) => {
      statements.push(params === undefined ? { sql } : { sql, params });
      return Object.entries(answers).find(([key]) => sql.includes(key))?.[1] ?? [];
    },
  };
  return { db, statements };
}

/** The SQL with its line breaks and indentation folded to single spaces. */
const flat = (sql: string) => sql.replace(/\s+/g, ' ');

describe('frozenFillChangeLogStates (migration ChangeLogState)', () => {
  it('runs the five statements it ran when it was written', async () => {
    const { db, statements } = recorder();
    await frozenFillChangeLogStates(db);
    const post = (type: string, table: string) =>
      `UPDATE change_log SET ${['author_id', 'status', 'date_utc', 'modified_utc'].map((c) => `${c} = (SELECT t.${c} FROM ${table} t WHERE t.id = change_log.item_id)`).join(', ')} WHERE type = '${type}'`;
    expect(statements).toEqual([
      { sql: post('event', 'events') },
      { sql: post('venue', 'venues') },
      { sql: post('organizer', 'organizers') },
      {
        sql: "UPDATE change_log SET status = (SELECT 'publish' FROM terms t WHERE t.taxonomy = 'category' AND t.id = change_log.item_id) WHERE type = 'category'",
      },
      { sql: "UPDATE change_log SET status = (SELECT 'publish' FROM terms t WHERE t.taxonomy = 'tag' AND t.id = change_log.item_id) WHERE type = 'tag'" },
    ]);
    expect(post('event', 'events')).toBe(
      "UPDATE change_log SET author_id = (SELECT t.author_id FROM events t WHERE t.id = change_log.item_id), status = (SELECT t.status FROM events t WHERE t.id = change_log.item_id), date_utc = (SELECT t.date_utc FROM events t WHERE t.id = change_log.item_id), modified_utc = (SELECT t.modified_utc FROM events t WHERE t.id = change_log.item_id) WHERE type = 'event'",
    );
  });
});

describe('frozenBackfillChangeLog (migration ChangeLogLatest)', () => {
  it('numbers the missing rows after the counter, posts then terms, without state columns, and moves the counter', async () => {
    const { db, statements } = recorder({ 'AS top': [{ top: '40' }], 'AS posts': [{ posts: 17 }], 'AS highest': [{ highest: '75' }] });
    await expect(frozenBackfillChangeLog(db, '2026-01-02 03:04:05')).resolves.toBe(75);
    const at = ['2026-01-02 03:04:05'];
    const post = (type: string, table: string) => ({
      sql: `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc) SELECT '${type}', t.id, 40 + t.id, 40 + t.id, CASE WHEN t.status = 'publish' THEN 1 ELSE 0 END, ? FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = '${type}' AND c.item_id = t.id)`,
      params: at,
    });
    const term = "CASE WHEN t.taxonomy = 'category' THEN 'category' ELSE 'tag' END";
    expect(statements.map((s) => ({ ...s, sql: flat(s.sql) }))).toEqual([
      { sql: "UPDATE change_counter SET seq = seq + 0 WHERE name = 'log'" },
      { sql: "SELECT seq AS top FROM change_counter WHERE name = 'log'" },
      { sql: 'SELECT MAX(id) AS posts FROM posts' },
      post('event', 'events'),
      post('venue', 'venues'),
      post('organizer', 'organizers'),
      {
        sql: `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc) SELECT ${term}, t.id, 57 + t.id, 57 + t.id, 1, ? FROM terms t WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = ${term} AND c.item_id = t.id)`,
        params: at,
      },
      { sql: 'SELECT MAX(seq) AS highest FROM change_log' },
      { sql: "UPDATE change_counter SET seq = ? WHERE name = 'log'", params: [75] },
    ]);
  });

  it('keeps the counter where it was when no row is above it', async () => {
    const { db, statements } = recorder({ 'AS top': [{ top: 9 }], 'AS posts': [{ posts: null }], 'AS highest': [{ highest: null }] });
    await expect(frozenBackfillChangeLog(db, '2026-01-02 03:04:05')).resolves.toBe(9);
    expect(statements.at(-1)).toEqual({ sql: "UPDATE change_counter SET seq = ? WHERE name = 'log'", params: [9] });
  });
});

describe('frozenSearchDocument (migration EventSearch)', () => {
  it.each([
    [[''], ''],
    [['ab', 'ab'], ''],
    [
      ['Jazz by the river', 'Live music', ''],
      'qjaxz qaxzxz qxzxzx0 qxzx0b qx0bxy qbxyx0 qxyx0t qx0th qthe qhex0 qex0r qx0ri qriv qive qver qliv qvex0 qex0m qx0mu qmus qusi qsic',
    ],
    [
      ['Café "au lait", 100% à 5€ — Ωmega 😀'],
      'qcaf qafe qfex0 qex0xa qx0xaa qxaau qaux0 qux0l qx0la qlai qait qitxa qtxax4 qxax4x0 qx4x01 qx010 q100 q00xi q0xix0 qxix0a qx0ax0 qax05 qx05y06gc q5y06gcx0 qy06gcx0y06c4 qx0y06c4x0 qy06c4x0y00qx qx0y00qxm qy00qxme qmeg qega qgax0 qax0y2r5s',
    ],
    [
      ['STRAßE Øresund łódź ΣΟΦΟΣ ς'],
      'qstr qtra qras qase qsex0 qex0o qx0or qore qres qesu qsun qund qndx0 qdx0l qx0lo qlod qodxz qdxzx0 qxzx0y00qr qx0y00qry00qn qy00qry00qny00qu qy00qny00quy00qn qy00quy00qny00qr qy00qny00qrx0 qy00qrx0y00qr',
    ],
    [
      ['١٢٣ ৪৫৬ Ⴀბგ ⴀ', 'xyz XYZ _~$^'],
      'q123 q23x0 q3x04 qx045 q456 q56x0 q6x0y03bk qx0y03bky03bl qy03bky03bly03bm qy03bly03bmx0 qy03bmx0y03bk qxxxyxz qxyxzx0 qxzx0xx qx0xxxy qxzx0xw qx0xwxt qxwxtxu qxtxuxv',
    ],
    [['ﬁne ①②③ ＡＢＣ', 'a'], 'qfne qnex0 qex01 qx012 q123 q23x0 q3x0a qx0ab qabc'],
  ])('%j', (fields, document) => expect(frozenSearchDocument(fields)).toBe(document));
});

describe('frozenTermNameKey / frozenShadowNameKey (migration UniqueSlugsTermNames)', () => {
  it.each([
    ['Jazz', 'c301f75ab52fa076c827231e613bbc976e26b2c1f7ddd01a319b2832b8ecdf9a', 'b8ac88041bec53e167f7ea822bd90e857278dab7ef4714046becdefe69032f9e'],
    ['JAZZ', 'c301f75ab52fa076c827231e613bbc976e26b2c1f7ddd01a319b2832b8ecdf9a', 'b8ac88041bec53e167f7ea822bd90e857278dab7ef4714046becdefe69032f9e'],
    ['E\u0301te\u0301', 'bd010c64132bf5cae8aea89f6762515727dcf68a5dd1de813c87f50a16c4513c', '529ccd2c3193e1364ca62d5ee5ca5b723734581a7b34157c725c87153b91e74e'],
    ['İstanbul', '4a4df120f7d1f3c286f58651abfcec2aade892ace635f96f02b946c96e6e1f86', '14cb9da120461f6718c93a1e10b26168de261c782c7cfcf187c075b8befc733e'],
    ['ǅemal', '4c7bda2afea428bbf00999384b79c3e0bd817dccf87785cfa44c7158b3503eda', '05922d5cf79e1ab0ce9fb6340642411c1687a051eb88ddefeda0c7acddc16f0b'],
    ['Straße', '787f4770613d3824cbc89b6d5da90a123e41b07b90b45ea3738c216b14616140', '7e10882515c1fbcfa8f94c74a7f4c360c9664375f4abb8c208b5d17db69b7937'],
  ])('%s', (name, key, shadowOf11) => {
    expect(frozenTermNameKey(name)).toBe(key);
    expect(frozenShadowNameKey(name, 11)).toBe(shadowOf11);
  });
});
