import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { varyWith, bodyTag, codingFor, encode, ifMatchAccepts, isCompressible, noneMatchHits, variantTag } from './representation';

describe('codingFor (Accept-Encoding)', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['*', 'br'],
    ['gzip, *;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['br;q=abc, gzip', 'gzip'],
  ])('%j → %j', (header, expected) => {
    expect(codingFor(header)).toBe(expected);
  });
});

describe('isCompressible', () => {
  it.each([
    ['application/json; charset=UTF-8', true],
    ['text/calendar; charset=utf-8', true],
    ['text/html', true],
    ['application/vnd.oai.openapi+json', true],
    ['image/png', false],
    [undefined, false],
  ])('%j → %j', (type, expected) => expect(isCompressible(type)).toBe(expected));
});

describe('tags', () => {
  const tag = bodyTag(Buffer.from('{"a":1}'));

  it('are strong, quoted, and differ with the body', () => {
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(bodyTag(Buffer.from('{"a":1}'))).toBe(tag);
    expect(bodyTag(Buffer.from('{"a":2}'))).not.toBe(tag);
  });

  it('differ across codings', () => {
    expect(new Set([variantTag(tag, null), variantTag(tag, 'br'), variantTag(tag, 'gzip')]).size).toBe(3);
    expect(variantTag(tag, null)).toBe(tag);
  });

  it('If-None-Match: the exact variant, a list, * and the weak form match', () => {
    const br = variantTag(tag, 'br');
    expect(noneMatchHits(br, br)).toBe(true);
    expect(noneMatchHits(`"x", ${br}`, br)).toBe(true);
    expect(noneMatchHits('*', br)).toBe(true);
    expect(noneMatchHits(`W/${br}`, br)).toBe(true);
    expect(noneMatchHits(tag, br)).toBe(false);
    expect(noneMatchHits(undefined, br)).toBe(false);
  });

  it('If-Match: any variant of the current body, or *; never a weak tag', () => {
    expect(ifMatchAccepts(tag, tag)).toBe(true);
    expect(ifMatchAccepts(variantTag(tag, 'br'), tag)).toBe(true);
    expect(ifMatchAccepts(variantTag(tag, 'gzip'), tag)).toBe(true);
    expect(ifMatchAccepts(`"old", ${tag}`, tag)).toBe(true);
    expect(ifMatchAccepts('*', tag)).toBe(true);
    expect(ifMatchAccepts(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchAccepts('"old"', tag)).toBe(false);
    expect(ifMatchAccepts('garbage', tag)).toBe(false);
  });
});

describe('encode', () => {
  it('round-trips through br and gzip', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'x'.repeat(5000) }));
    expect(brotliDecompressSync(await encode(body, 'br')).equals(body)).toBe(true);
    expect(gunzipSync(await encode(body, 'gzip')).equals(body)).toBe(true);
  });
});

describe('varyWith', () => {
  it('adds a name once', () => {
    expect(varyWith(undefined, 'Accept-Encoding')).toBe('Accept-Encoding');
    expect(varyWith('Origin', 'Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyWith('Origin, accept-encoding', 'Accept-Encoding')).toBe('Origin, accept-encoding');
    expect(varyWith('*', 'Accept-Encoding')).toBe('*');
  });
});
