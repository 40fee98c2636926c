// A client generated from GET {api_root}/doc (spec beyond.md #6): openapi-typescript turns the
// document into `schema.d.ts`, and a small program uses openapi-fetch with it the way their
// documentation shows (`createClient<paths>({ baseUrl })`, `client.GET('/events', { params })`,
// `client.POST('/events', { body })`, reading `error.code`). The program must type-check with
// no diagnostics, for list/create/read/update/delete of every resource and for reading an error:
// that is what proves the document's request and answer schemas are usable (ids that accept
// numbers, nested venue/organizer objects, optional fields not required, a typed error body).
// A second program with a deliberate mistake must NOT type-check, so the first check is known
// to bite. Finally the program is run against the app, listening on a free port: the generated
// client works end to end, not only on paper.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { API } from '../../support/http';
import { servedDocument } from '../../support/openapi';
import { createTestApp, type TestApp } from '../../support/test-app';

const ROOT = path.join(__dirname, '..', '..', '..');
const OPENAPI_TYPESCRIPT = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');

/** A child process, asynchronously: the app it may talk to runs in this process. */
const run = async (file: string, args: string[], cwd: string) => (await promisify(execFile)(file, args, { cwd })).stdout;

/** The client program, written as the openapi-fetch documentation shows its use. */
const CLIENT_PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(what);
}

export async function run(baseUrl: string, authorization: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });
  const seen: Record<string, unknown> = {};

  // categories
  const { data: category, error: categoryError } = await client.POST('/categories', { body: { name: 'Concerts', description: 'Live music' } });
  check(category, 'create category: ' + categoryError?.message);
  const { data: categoryRead } = await client.GET('/categories/{id}', { params: { path: { id: category.id } } });
  check(categoryRead?.name === 'Concerts', 'read category');
  const { data: categoryUpdated } = await client.POST('/categories/{id}', { params: { path: { id: String(category.id) } }, body: { description: 'Live music, mostly' } });
  check(categoryUpdated?.description === 'Live music, mostly', 'update category');
  const { data: categories } = await client.GET('/categories', { params: { query: { hide_empty: false, per_page: 5 } } });
  check(categories?.categories.some((c) => c.id === category.id), 'list categories');

  // tags
  const { data: tag } = await client.POST('/tags', { body: { name: 'outdoor' } });
  check(tag, 'create tag');
  const { data: tagRead } = await client.GET('/tags/{id}', { params: { path: { id: tag.id } } });
  check(tagRead?.slug === 'outdoor', 'read tag');
  const { data: tagUpdated } = await client.PATCH('/tags/{id}', { params: { path: { id: tag.id } }, body: { name: 'open air' } });
  check(tagUpdated?.name === 'open air', 'update tag');
  const { data: tags } = await client.GET('/tags', { params: { query: { hide_empty: false, search: 'open' } } });
  check(tags?.tags.length === 1, 'list tags');

  // organizers
  const { data: organizer } = await client.POST('/organizers', { body: { organizer: 'Ada Events', email: 'ada@example.org' } });
  check(organizer, 'create organizer');
  const { data: organizerRead } = await client.GET('/organizers/{id}', { params: { path: { id: organizer.id } } });
  check(organizerRead?.organizer === 'Ada Events', 'read organizer');
  const { data: organizerUpdated } = await client.PUT('/organizers/{id}', { params: { path: { id: organizer.id } }, body: { phone: '+39 06 123' } });
  check(organizerUpdated?.phone === '+39 06 123', 'update organizer');
  const { data: organizers } = await client.GET('/organizers', { params: { query: { search: 'Ada' } } });
  check(organizers?.organizers.length === 1, 'list organizers');

  // venues
  const { data: venue } = await client.POST('/venues', { body: { venue: 'Old Mill', city: 'Turin', show_map: false } });
  check(venue, 'create venue');
  const { data: venueRead } = await client.GET('/venues/{id}', { params: { path: { id: venue.id } } });
  check(venueRead?.city === 'Turin', 'read venue');
  const { data: venueUpdated } = await client.POST('/venues/{id}', { params: { path: { id: venue.id } }, body: { zip: '10100' } });
  check(venueUpdated?.zip === '10100', 'update venue');
  const { data: venues } = await client.GET('/venues', { params: { query: { page: 1, per_page: 10 } } });
  check(venues?.venues.some((v) => v.id === venue.id), 'list venues');

  // events: categories by id, a new venue given inline, organizers by id
  const { data: event, error: eventError } = await client.POST('/events', {
    body: {
      title: 'Summer concert',
      start_date: '2031-07-01 21:00:00',
      end_date: '2031-07-01 23:30:00',
      categories: [category.id],
      tags: ['open air'],
      venue: { venue: 'Riverside Stage', city: 'Turin', country: 'Italy' },
      organizer: [organizer.id],
    },
  });
  check(event, 'create event: ' + eventError?.code);
  seen.eventVenue = event.venue && 'venue' in event.venue ? event.venue.venue : null;
  seen.eventOrganizers = event.organizer?.map((o) => o.id);
  seen.eventCategories = event.categories?.map((c) => c.id);
  const { data: eventRead } = await client.GET('/events/{id}', { params: { path: { id: event.id } } });
  check(eventRead?.title === 'Summer concert', 'read event');
  const { data: eventUpdated } = await client.POST('/events/{id}', {
    params: { path: { id: event.id } },
    body: { title: 'Summer concert (moved)', venue: venue.id, organizer: [{ id: organizer.id }], featured: true },
  });
  check(eventUpdated?.title === 'Summer concert (moved)', 'update event');
  seen.updatedVenue = eventUpdated.venue && 'id' in eventUpdated.venue ? eventUpdated.venue.id : null;
  const { data: events, response: listResponse } = await client.GET('/events', {
    params: { query: { start_date: '2031-06-01', end_date: '2031-08-01', categories: [String(category.id)] } },
  });
  check(events?.events.length === 1, 'list events');
  seen.total = listResponse.headers.get('X-TEC-Total');
  // the list filters that take ids, given as numbers: one in an array, or one alone
  const { data: byIds } = await client.GET('/events', {
    params: { query: { start_date: '2031-06-01', end_date: '2031-08-01', categories: [category.id], venue: venue.id, organizer: [organizer.id] } },
  });
  check(byIds?.events.length === 1, 'list events by category, venue and organizer ids');
  const { data: byName } = await client.GET('/events', { params: { query: { start_date: '2031-06-01', end_date: '2031-08-01', categories: 'Concerts' } } });
  check(byName?.events.length === 1, 'list events by category name');

  // an error answer, read through the shared error schema
  const { data: missing, error } = await client.GET('/events/{id}', { params: { path: { id: 999999 } } });
  check(!missing && error, 'unknown event');
  seen.error = { code: error.code, message: error.message, status: error.data.status };

  // deletes
  const { data: trashed } = await client.DELETE('/events/{id}', { params: { path: { id: event.id } } });
  check(trashed && 'status' in trashed && trashed.status === 'trash', 'delete event');
  const { data: venueTrashed } = await client.DELETE('/venues/{id}', { params: { path: { id: venue.id } } });
  check(venueTrashed, 'delete venue');
  const { data: organizerTrashed } = await client.DELETE('/organizers/{id}', { params: { path: { id: organizer.id } } });
  check(organizerTrashed, 'delete organizer');
  const { data: tagDeleted } = await client.DELETE('/tags/{id}', { params: { path: { id: tag.id } } });
  check(tagDeleted?.id === tag.id, 'delete tag');
  const { data: categoryDeleted } = await client.DELETE('/categories/{id}', { params: { path: { id: category.id } } });
  check(categoryDeleted?.id === category.id, 'delete category');
  const { error: gone } = await client.DELETE('/events/{id}', { params: { path: { id: event.id } } });
  seen.deleteAgain = gone?.code;
  return seen;
}
`;

/** The same use with a mistake a typed client must catch: a number where the title is text. */
const BROKEN_PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function run(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  return client.POST('/events', { body: { title: 5, start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' } });
}
`;

/** Options of a project using openapi-fetch as its documentation recommends (strict, bundler resolution). */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
};

/** The last program checked: the next one reuses its parsed files (the schema, the libraries). */
let previous: ts.Program | undefined;

function diagnosticsOf(dir: string, file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], COMPILER_OPTIONS, undefined, previous);
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${path.basename(d.file.fileName)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a client generated from /doc with openapi-typescript and openapi-fetch', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    const doc = await servedDocument(t);
    dir = mkdtempSync(path.join(tmpdir(), 'calendar-openapi-client-'));
    // The programs import openapi-fetch as any project would: from a node_modules beside them.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    // The CLI, as its documentation shows (its programmatic API is ESM inside, which Jest cannot load).
    await run(process.execPath, [OPENAPI_TYPESCRIPT, 'openapi.json', '--output', 'schema.d.ts'], dir);
    writeFileSync(path.join(dir, 'client.ts'), CLIENT_PROGRAM);
    writeFileSync(path.join(dir, 'broken.ts'), BROKEN_PROGRAM);
  });

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('type-checks a program doing list/create/read/update/delete of every resource and reading an error', () => {
    expect(diagnosticsOf(dir, 'client.ts')).toEqual([]);
  }, 120_000);

  it('refuses a program with a type error (so the check above can fail)', () => {
    const diagnostics = diagnosticsOf(dir, 'broken.ts');
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.join('\n')).toMatch(/number.*string/s);
  }, 120_000);

  it('runs the program against the app: the generated client works end to end', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    const admin = await t.userHeader('client-admin', 'administrator');
    const js = ts.transpileModule(CLIENT_PROGRAM, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(path.join(dir, 'client.mjs'), js);
    writeFileSync(
      path.join(dir, 'main.mjs'),
      "import { run } from './client.mjs';\nconsole.log(JSON.stringify(await run(process.argv[2], process.argv[3])));\n",
    );
    const seen = JSON.parse(await run(process.execPath, ['main.mjs', `http://127.0.0.1:${port}${API}`, admin.authorization], dir));
    expect(seen).toMatchObject({
      eventVenue: 'Riverside Stage',
      eventOrganizers: [expect.any(Number)],
      eventCategories: [expect.any(Number)],
      updatedVenue: expect.any(Number),
      total: '1',
      error: { code: 'rest-event-not-found', status: 404, message: expect.any(String) },
      deleteAgain: 'event-is-in-trash',
    });
  }, 120_000);
});
