// The recurrence part of scripts/bench.js: the weekly two-year series the
// bench creates through the API, the same occurrences as single events for the comparison run,
// and the series writes measured one at a time (create-series, edit-series-all).
'use strict';
const path = require('node:path');

const API = '/calendar/events/v1';
/** Occurrences of each series: two years of weeks. */
const WEEKS = 104;
const RULE = `RRULE:FREQ=WEEKLY;COUNT=${WEEKS}`;
/** The series targets, in ms: a series create's p99 and an all-occurrences edit's worst case. */
const TARGETS = { 'create-series': { p99: 300 }, 'edit-series-all': { max: 1000 } };

/**
 * `count` series bodies (without their rule), drawn like the seed's events: a title from its
 * word lists, a zone from its weights, a category and a venue from those the bench found (the
 * popular ones more often), a cost, one to three hours. Each starts within the coming week, so
 * that all of its 104 weeks lie within the default horizon (730 days) and the list's default
 * window (two years ahead).
 */
function seriesBodies(count, found, random, label) {
  const v = require(path.join(__dirname, '..', 'dist', 'src', 'seed', 'vocabulary.js'));
  const today = new Date();
  return Array.from({ length: count }, (_, k) => {
    const first = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + random.int(1, 7), random.int(8, 20), random.pick([0, 30])),
    );
    const end = new Date(first.getTime() + random.int(1, 3) * 3_600_000);
    return {
      title: `${random.pick(v.ADJECTIVES)} ${random.pick(v.TOPICS)} ${random.pick(v.EVENT_KINDS)} (${label} ${k + 1})`,
      start_date: wallTime(first),
      end_date: wallTime(end),
      timezone: random.weighted(v.EVENT_ZONES),
      categories: [found.categories[random.skewedIndex(found.categories.length)]],
      venue: found.venues[random.skewedIndex(found.venues.length)],
      ...costOf(random.weighted(v.COSTS)),
    };
  });
}

/** The seed's costs are lists of strings; an empty one is no cost. */
const costOf = (cost) => (cost.length > 0 ? { cost: cost.join(', ') } : {});

/** `YYYY-MM-DD HH:MM:SS` of a Date's UTC fields, read as a wall time in the event's zone. */
const wallTime = (d) => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * The occurrences of a series body as single events: the same fields, the same wall times a
 * week apart (a weekly rule keeps the wall time across DST), and the dated slug an occurrence
 * gets, so that no write walks a chain of `-2`, `-3`… slugs.
 */
function singleBodies(body) {
  const shift = (text, weeks) => wallTime(new Date(Date.parse(`${text.replace(' ', 'T')}Z`) + weeks * 7 * 86_400_000));
  const slug = body.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return Array.from({ length: WEEKS }, (_, w) => {
    const start = shift(body.start_date, w);
    return { ...body, start_date: start, end_date: shift(body.end_date, w), slug: `${slug}-${start.slice(0, 10)}` };
  });
}

/** POST /events; throws unless it answers 201. Returns the created event's id. */
async function createEvent(request, base, auth, body) {
  const res = await request(base, {
    method: 'POST',
    path: `${API}/events`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /events answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return JSON.parse(res.body.toString()).id;
}

/**
 * The bench's series, made through the API one after another (what is measured is the
 * series write), with progress; checks that the first one has all its occurrences. Returns
 * their ids and the latencies of their creation.
 */
async function createSeries(request, base, auth, bodies, Progress) {
  const progress = new Progress(`Creating ${bodies.length.toLocaleString('en-US')} weekly series (${WEEKS} occurrences each)`, bodies.length);
  const ids = [];
  const latencies = [];
  for (const body of bodies) {
    const started = process.hrtime.bigint();
    ids.push(await createEvent(request, base, auth, { ...body, recurrence: [RULE] }));
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    progress.update(ids.length);
  }
  progress.finish();
  if (ids.length > 0) {
    const res = await request(base, { path: `${API}/events/${ids[0]}/occurrences?per_page=1` });
    const total = res.status === 200 ? JSON.parse(res.body.toString()).total : undefined;
    if (total !== WEEKS) throw new Error(`series ${ids[0]} has ${total} occurrences, not ${WEEKS} (GET /occurrences answered ${res.status})`);
  }
  return { ids, latencies };
}

/** The same occurrences as single events, `connections` writes at a time, with progress. */
async function createSingles(request, base, auth, bodies, connections, Progress) {
  const all = bodies.flatMap(singleBodies);
  const progress = new Progress(`Creating the same ${all.length.toLocaleString('en-US')} occurrences as single events`, all.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < all.length) {
      await createEvent(request, base, auth, all[next++]);
      progress.update(++done);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  progress.finish();
  return all.length;
}

/**
 * The series writes, measured by a client that sends one request at a time and times each
 * answer (wrk keeps every connection busy, which for requests of up to a second measures the
 * queue rather than the write): `create-series` posts a new two-year weekly series;
 * `edit-series-all` changes the title of one of the bench's series with scope=all, in turn.
 */
function seriesWriteScenarios(found, seriesIds, random, auth) {
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const created = seriesBodies(1000, found, random, `bench ${process.pid}`);
  return [
    {
      name: 'create-series',
      request: (k) => ({
        method: 'POST',
        path: `${API}/events`,
        headers,
        body: JSON.stringify({ ...created[k % created.length], recurrence: [RULE] }),
        status: 201,
      }),
    },
    {
      name: 'edit-series-all',
      request: (k) => ({
        method: 'POST',
        path: `${API}/events/${seriesIds[k % seriesIds.length]}?scope=all`,
        headers,
        body: JSON.stringify({ title: `Edited series ${process.pid}-${k}` }),
        status: 200,
      }),
    },
  ];
}

/** `samples` requests of a scenario one after another; their latencies and the answers that were not the expected status. */
async function measureSequential(request, base, scenario, samples) {
  const latencies = [];
  const failures = [];
  for (let k = 0; k < samples; k++) {
    const { status, ...req } = scenario.request(k);
    const started = process.hrtime.bigint();
    const res = await request(base, req);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.status !== status) failures.push(`${res.status} ${res.body.toString().slice(0, 200)}`);
  }
  return { name: scenario.name, ...latencySummary(latencies), errors: failures.length, firstError: failures[0] };
}

/** p50, p99 (nearest rank: with fewer than 100 samples p99 is the largest) and max of some latencies, in ms. */
function latencySummary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
  const r = (x) => Number(x.toFixed(1));
  return { samples: sorted.length, p50: r(rank(0.5)), p99: r(rank(0.99)), max: r(sorted.at(-1) ?? 0) };
}

/** Whether a sequential result meets its target, and the target in words. */
function verdict(row) {
  const target = TARGETS[row.name];
  if (!target) return { text: '', met: true };
  const [key, limit] = Object.entries(target)[0];
  const met = row.errors === 0 && row[key] < limit;
  return { text: `${key} < ${limit} ms`, met };
}

/** The sequential writes' table. */
function sequentialTable(rows) {
  const header = ['scenario', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'target', 'met'];
  const lines = rows.map((r) => {
    const v = verdict(r);
    return [r.name, String(r.samples), r.p50.toFixed(1), r.p99.toFixed(1), r.max.toFixed(1), String(r.errors), v.text, v.met ? 'yes' : 'NO'];
  });
  return textTable(header, lines);
}

/**
 * The paired runs: each scenario's req/s and latencies with the series and with the same
 * occurrences as single events, and the difference (negative: the series are slower).
 */
function comparisonTable(pairs) {
  const header = ['scenario', 'series req/s', 'p50 ms', 'p99 ms', 'singles req/s', 'p50 ms', 'p99 ms', 'series vs singles'];
  const lines = pairs.map(({ name, series, singles }) => [
    name,
    series.rps.toFixed(0),
    series.p50.toFixed(2),
    series.p99.toFixed(1),
    singles.rps.toFixed(0),
    singles.p50.toFixed(2),
    singles.p99.toFixed(1),
    difference(series.rps, singles.rps),
  ]);
  return textTable(header, lines);
}

/** The series run's req/s against the singles run's, in %. */
const difference = (series, singles) => (singles > 0 ? `${series >= singles ? '+' : ''}${(((series - singles) / singles) * 100).toFixed(1)}%` : '?');

/** Columns padded to their widest cell, the first to the left, the others to the right. */
function textTable(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

module.exports = {
  WEEKS,
  seriesBodies,
  createSeries,
  createSingles,
  seriesWriteScenarios,
  measureSequential,
  latencySummary,
  verdict,
  sequentialTable,
  comparisonTable,
  difference,
  textTable,
};
