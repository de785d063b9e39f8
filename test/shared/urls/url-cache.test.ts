/** The bounded URL-keyed map behind the crawl's caches (`shared/urls/url-cache.ts`). */
import { describe, expect, it } from 'vitest';
import { UrlCache } from '../../../shared/urls/url-cache.ts';

describe('UrlCache', () => {
  it('keeps what it is given, and gives it back', () => {
    const cache = new UrlCache<string | null>({ maxEntries: 10, maxKeyChars: 1000 });
    cache.set('http://a.test/x', 'a.test');
    cache.set('http://b.test/y', null);
    expect(cache.get('http://a.test/x')).toBe('a.test');
    expect(cache.get('http://b.test/y')).toBeNull();
    expect(cache.get('http://c.test/')).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.keyChars).toBe('http://a.test/x'.length + 'http://b.test/y'.length);
  });

  it('drops the oldest entries past its entry bound', () => {
    // Two generations of two: 0 and 1 age out together when 4 comes.
    const cache = new UrlCache<number>({ maxEntries: 4, maxKeyChars: 1000 });
    for (let i = 0; i < 5; i++) cache.set(`http://h.test/${i}`, i);
    expect(cache.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => cache.get(`http://h.test/${i}`))).toEqual([undefined, undefined, 2, 3, 4]);
  });

  it('drops the oldest entries past its character bound, and never keeps a key longer than a generation holds', () => {
    // Two generations of 50 characters: one 40-character key each.
    const cache = new UrlCache<number>({ maxEntries: 1000, maxKeyChars: 100 });
    const long = (i: number) => `http://h.test/${String(i).padStart(26, '0')}`; // 40 characters
    for (let i = 0; i < 5; i++) cache.set(long(i), i);
    expect(cache.size).toBe(2);
    expect(cache.keyChars).toBe(80);
    expect(cache.get(long(3))).toBe(3);
    expect(cache.get(long(4))).toBe(4);
    cache.set(`http://h.test/${'x'.repeat(37)}`, 9); // 51 characters
    expect(cache.size).toBe(2);
    expect(cache.keyChars).toBe(80);
    expect(cache.get(`http://h.test/${'x'.repeat(37)}`)).toBeUndefined();
  });

  it('keeps a key that is asked for while the keys around it age out', () => {
    const cache = new UrlCache<number>({ maxEntries: 8, maxKeyChars: 10_000 });
    cache.set('http://h.test/index', -1);
    for (let i = 0; i < 100; i++) {
      cache.set(`http://h.test/${i}`, i);
      expect(cache.get('http://h.test/index')).toBe(-1);
      expect(cache.size).toBeLessThanOrEqual(8);
    }
    expect(cache.get('http://h.test/0')).toBeUndefined();
    expect(cache.get('http://h.test/99')).toBe(99);
  });

  it('stays within both bounds whatever a hostile site links to', () => {
    const cache = new UrlCache<number>({ maxEntries: 500, maxKeyChars: 20_000 });
    for (let i = 0; i < 20_000; i++) cache.set(`http://trap.test/${'a/'.repeat(i % 50)}${i}`, i);
    expect(cache.size).toBeLessThanOrEqual(500);
    expect(cache.keyChars).toBeLessThanOrEqual(20_000);
    expect(cache.get(`http://trap.test/${'a/'.repeat(19_999 % 50)}19999`)).toBe(19_999);
  });

  it('counts a key set again once', () => {
    const cache = new UrlCache<number>({ maxEntries: 2, maxKeyChars: 1000 });
    cache.set('http://a.test/', 1);
    cache.set('http://a.test/', 2);
    cache.set('http://b.test/', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('http://a.test/')).toBe(2);
    expect(cache.keyChars).toBe(28);
  });

  it('refuses bounds under two (a generation holds half)', () => {
    expect(() => new UrlCache({ maxEntries: 1, maxKeyChars: 10 })).toThrow(RangeError);
    expect(() => new UrlCache({ maxEntries: 10, maxKeyChars: 1 })).toThrow(RangeError);
  });
});
