import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/random/seeded-random.ts';
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

  it('keeps exactly what a list in recency order keeps, past its first 1,024 slots and after clear()', () => {
    const capacity = 1_500;
    const cache = new LruCache<number, number>(capacity);
    let recency: number[] = []; // the reference: most recent last
    const random = seededRandom(7);
    for (let step = 0; step < 60_000; step++) {
      if (step === 30_000) {
        cache.clear();
        recency = [];
      }
      const key = Math.floor(random() * 2_500);
      if (random() < 0.5) {
        const at = recency.indexOf(key);
        expect(cache.get(key)).toBe(at === -1 ? undefined : key * 2);
        if (at !== -1) recency.push(...recency.splice(at, 1));
      } else {
        cache.set(key, key * 2);
        const at = recency.indexOf(key);
        if (at !== -1) recency.splice(at, 1);
        recency.push(key);
        if (recency.length > capacity) recency.shift();
      }
    }
    expect(cache.size).toBe(recency.length);
    for (const key of recency) expect(cache.has(key)).toBe(true);
  });
});
