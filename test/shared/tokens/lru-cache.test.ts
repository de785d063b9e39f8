import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../shared/tokens/lru-cache.ts';

describe('LruCache', () => {
  it('evicts the least recently used entry, counting a get as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('replaces a value without growing', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(2);
  });

  it('keeps an undefined value distinct from a miss in has()', () => {
    const cache = new LruCache<string, undefined>(1);
    cache.set('a', undefined);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
  });

  it('keeps nothing at capacity 0 and rejects bad capacities', () => {
    const cache = new LruCache<string, number>(0);
    cache.set('a', 1);
    expect(cache.size).toBe(0);
    expect(() => new LruCache(-1)).toThrow(RangeError);
    expect(() => new LruCache(Number.NaN)).toThrow(RangeError);
  });

  it('clears', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
