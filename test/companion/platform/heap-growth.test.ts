import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitHeapGrowth } from '../../../companion/platform/heap-growth.ts';

const MODULE = resolve(import.meta.dirname, '../../../companion/platform/heap-growth.ts');

/**
 * A child that keeps ~30 MB live and churns objects that live long enough to be promoted (a
 * crawl's pages in flight), then prints its heap's peak over what stays live. Measured in the
 * second half, after V8's first full collections have set its limits from the live size.
 */
const CHURN = `
  import v8 from 'node:v8';
  if (process.argv.includes('limit')) (await import(${JSON.stringify(MODULE)})).limitHeapGrowth(50);
  const live = Array.from({ length: 300_000 }, (_, i) => ({ i, s: 'live ' + i }));
  const ring = new Array(64);
  let peak = 0;
  const rounds = 3000;
  for (let round = 0; round < rounds; round++) {
    ring[round % ring.length] = Array.from({ length: 2000 }, (_, i) => ({ round, i, s: 'page ' + round + ' ' + i }));
    if (round > rounds / 2) peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
  }
  globalThis.gc();
  const kept = v8.getHeapStatistics().used_heap_size;
  console.log(JSON.stringify({ ratio: peak / kept, peak, kept, live: live.length }));
`;

function churn(...args: string[]): { ratio: number } {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHURN, '--', ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { ratio: number };
}

describe('limitHeapGrowth', () => {
  // Measured: 2.1× with the limit (1.5× in the old generation, plus the young one), 4.7× without.
  it('keeps the heap near 1.5× what is live, where V8 alone lets it reach 4×', () => {
    expect(churn('limit').ratio).toBeLessThan(3);
  }, 60_000);

  it('refuses a percent that is not a whole number ≥ 1', () => {
    expect(() => limitHeapGrowth(0)).toThrow(RangeError);
    expect(() => limitHeapGrowth(12.5)).toThrow(RangeError);
  });
});
