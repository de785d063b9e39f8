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

  it('peeks without counting it as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1);
    expect(cache.peek('z')).toBeUndefined();
    cache.set('c', 3);
    expect(cache.has('a')).toBe(false); // still the least recently used
    expect(cache.peek('b')).toBe(2);
  });

  it('replaces a value without growing', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(2);
  });

  it('sets a key a get just missed once, and finds it when it is set again', () => {
    const cache = new LruCache<string, number>(3);
    expect(cache.get('ab')).toBeUndefined();
    cache.set(['a', 'b'].join(''), 1); // an equal key, not the same string
    cache.set('ab', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('ab')).toBe(2);
    expect(cache.get('c')).toBeUndefined();
    cache.delete('ab');
    cache.set('c', 3); // a miss, then another change: the set looks again
    cache.set('c', 4);
    expect(cache.size).toBe(1);
    expect(cache.get('c')).toBe(4);
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

  describe('bounded by weight', () => {
    const byLength = (maxWeight: number) => new LruCache<string, string>(100, { maxWeight, weigh: (_key, value) => value.length });

    it('evicts the least recently used entries until the new one fits', () => {
      const cache = byLength(10);
      cache.set('a', 'xxxx'); // 4
      cache.set('b', 'xxxx'); // 8
      cache.get('a'); // b is now the oldest
      cache.set('c', 'xxxxxx'); // 14 > 10: b goes, then 10 fits
      expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
      expect(cache.weight).toBe(10);
      cache.set('d', 'xxxxxxxxx'); // 9: a and c both go
      expect(cache.size).toBe(1);
      expect(cache.weight).toBe(9);
    });

    it('keeps no entry heavier than the whole budget, and drops the older value of its key', () => {
      const cache = byLength(5);
      cache.set('a', 'xx');
      cache.set('a', 'xxxxxx');
      expect(cache.has('a')).toBe(false);
      expect(cache.weight).toBe(0);
    });

    it('weighs a replaced value anew', () => {
      const cache = byLength(10);
      cache.set('a', 'xxx');
      cache.set('b', 'xxx');
      cache.set('a', 'xxxxxxx'); // 3 + 7: fits, a newest
      expect(cache.weight).toBe(10);
      cache.set('b', 'xxxxx'); // 7 + 5 > 10: a, now the oldest, goes
      expect([cache.has('a'), cache.has('b'), cache.weight]).toEqual([false, true, 5]);
    });

    it('keeps exactly what a list in recency order keeps under both bounds, reusing freed slots', () => {
      const capacity = 1_200;
      const maxWeight = 20_000;
      const cache = new LruCache<number, number>(capacity, { maxWeight, weigh: (_key, value) => value });
      let recency: { key: number; weight: number }[] = []; // the reference: most recent last
      const random = seededRandom(11);
      for (let step = 0; step < 40_000; step++) {
        if (step === 20_000) {
          cache.clear();
          recency = [];
        }
        const key = Math.floor(random() * 3_000);
        const at = recency.findIndex((e) => e.key === key);
        if (random() < 0.5) {
          expect(cache.get(key)).toBe(at < 0 ? undefined : recency[at]!.weight);
          if (at >= 0) recency.push(...recency.splice(at, 1));
          continue;
        }
        const weight = Math.floor(random() * 60); // up to 59: the budget holds a few hundred
        cache.set(key, weight);
        if (at >= 0) recency.splice(at, 1);
        recency.push({ key, weight });
        const total = () => recency.reduce((sum, e) => sum + e.weight, 0);
        while (recency.length > capacity || total() > maxWeight) recency.shift();
        expect(cache.size).toBe(recency.length);
        expect(cache.weight).toBe(total());
      }
      expect(cache.size).toBeGreaterThan(300); // the weight, not the count, was the bound that bit
      expect(cache.size).toBeLessThan(capacity);
    });

    it('deletes an entry and its weight', () => {
      const cache = byLength(10);
      cache.set('a', 'xxx');
      expect(cache.delete('a')).toBe(true);
      expect(cache.delete('a')).toBe(false);
      expect([cache.size, cache.weight]).toEqual([0, 0]);
    });

    it('rejects a budget that is not a non-negative number', () => {
      expect(() => byLength(-1)).toThrow(RangeError);
      expect(() => byLength(Number.NaN)).toThrow(RangeError);
    });
  });
});
