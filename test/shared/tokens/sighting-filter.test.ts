import { describe, expect, it } from 'vitest';
import { SightingFilter, stringHash } from '../../../shared/tokens/sighting-filter.ts';

/** FNV-1a over bytes, written out from the algorithm's definition, for ASCII strings (one byte per code unit). */
function fnv1aOfBytes(bytes: readonly number[]): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Number((BigInt(hash ^ byte) * 0x01000193n) & 0xffffffffn) | 0;
  return hash;
}

describe('stringHash', () => {
  it('is 32-bit FNV-1a of the code units (the published test vectors)', () => {
    // draft-eastlake-fnv's vectors for FNV-1a 32: "a" → 0xe40c292c, "foobar" → 0xbf9cf968.
    expect(stringHash('a') >>> 0).toBe(0xe40c292c);
    expect(stringHash('foobar') >>> 0).toBe(0xbf9cf968);
    for (const s of ['', 'debian', 'node.js v2.1', 'x'.repeat(300)]) expect(stringHash(s)).toBe(fnv1aOfBytes([...s].map((c) => c.charCodeAt(0))));
  });

  it('with a prefix, is the hash of the prefix and the string joined', () => {
    for (const [prefix, s] of [['c:', '软件包'], ['', 'debian'], ['lex:', ''], ['u:', 'x'.repeat(40)], ['d:', '🙂/doc']]) {
      expect(stringHash(s!, prefix)).toBe(stringHash(`${prefix}${s}`));
    }
    expect(stringHash('b', 'a:')).not.toBe(stringHash('b', 'c:'));
  });

  it('reads UTF-16 code units, so Han text and astral characters hash', () => {
    expect(stringHash('软件包')).not.toBe(stringHash('软件'));
    expect(stringHash('🙂')).not.toBe(stringHash('🙃'));
  });
});

describe('SightingFilter', () => {
  it('says no on a first sighting and yes on the next', () => {
    const filter = new SightingFilter(1024);
    expect(filter.sight('首页')).toBe(false);
    expect(filter.sight('下一页')).toBe(false);
    expect(filter.sight('首页')).toBe(true);
    expect(filter.sight('下一页')).toBe(true);
    expect(filter.sight('首页')).toBe(true);
  });

  it('sights a prefixed string as the joined string', () => {
    const filter = new SightingFilter(1024);
    expect(filter.sight('股票', 'a:')).toBe(false);
    expect(filter.sight('a:股票')).toBe(true);
    expect(filter.sight('股票', 'c:')).toBe(false);
    expect(filter.sight('股票', 'c:')).toBe(true);
  });

  it('remembers one string per slot: a string whose slot was taken is new again', () => {
    const filter = new SightingFilter(1);
    expect(filter.sight('a')).toBe(false);
    expect(filter.sight('b')).toBe(false);
    expect(filter.sight('a')).toBe(false);
    expect(filter.sight('a')).toBe(true);
  });

  it('forgets everything on clear', () => {
    const filter = new SightingFilter(64);
    filter.sight('a');
    filter.clear();
    expect(filter.sight('a')).toBe(false);
  });

  it('takes only a power of two of slots', () => {
    expect(() => new SightingFilter(0)).toThrow(RangeError);
    expect(() => new SightingFilter(1000)).toThrow(RangeError);
  });
});
