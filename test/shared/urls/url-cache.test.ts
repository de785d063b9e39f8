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
    const cache = new UrlCache<number>({ maxEntries: 3, maxKeyChars: 1000 });
    for (let i = 0; i < 5; i++) cache.set(`http://h.test/${i}`, i);
    expect(cache.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => cache.get(`http://h.test/${i}`))).toEqual([undefined, undefined, 2, 3, 4]);
  });

  it('drops the oldest entries past its character bound, and never keeps a key longer than it', () => {
    const cache = new UrlCache<number>({ maxEntries: 1000, maxKeyChars: 100 });
    const long = (i: number) => `http://h.test/${String(i).padStart(26, '0')}`; // 40 characters
    for (let i = 0; i < 5; i++) cache.set(long(i), i);
    expect(cache.size).toBe(2);
    expect(cache.keyChars).toBe(80);
    expect(cache.get(long(3))).toBe(3);
    expect(cache.get(long(4))).toBe(4);
    cache.set(`http://h.test/${'x'.repeat(100)}`, 9);
    expect(cache.size).toBe(2);
    expect(cache.keyChars).toBe(80);
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

  it('refuses bounds under one', () => {
    expect(() => new UrlCache({ maxEntries: 0, maxKeyChars: 10 })).toThrow(RangeError);
    expect(() => new UrlCache({ maxEntries: 10, maxKeyChars: 0 })).toThrow(RangeError);
  });
});
