/**
 * Seeded randomness, so a split, a shuffle or a generated test page is the same on every machine
 * and every run (the training split, the benches' page draws, the property tests).
 */

/**
 * mulberry32 (Tommy Ettinger, 2017): a 32-bit state advanced by a Weyl constant and mixed by
 * two multiply-xorshift rounds; small, fast and well spread for shuffles, not for cryptography.
 * Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with a seeded generator (a seed, or a generator to draw on); the input is not changed. */
export function seededShuffle<T>(items: readonly T[], seed: number | (() => number)): T[] {
  const random = typeof seed === 'number' ? seededRandom(seed) : seed;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
