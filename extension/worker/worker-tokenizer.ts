/**
 * The Worker's tokenizer: the shared `createTokenizer` (no stop words, jieba with HMM), so its
 * tokens are the companion's to the last one, with a text cache that keeps a text from its second
 * sighting on (`cacheAdmission: 'second'`, `shared/tokens/sighting-filter.ts`).
 *
 * Why here and not for the companion too (issue 14): the Worker is handed pages of links whose
 * texts are mostly new, and caching each on its first sighting cost more than it saved: in the
 * profile of bench/extension/worker-node.ts (45,000 new contexts), `scoreLinks` took 1,379 ms
 * with every text cached and 996 ms with this admission, and the process's GC 809 → 571 ms.
 * Only what is kept changes, never a token. The Node harness builds its tokenizer here too,
 * so the two cannot drift.
 */
import { createTokenizer, type CachingTokenizer, type TokenizerOptions } from '../../shared/tokens/tokenizer.ts';
import type { ChineseCutter } from '../../shared/tokens/types.ts';

export const WORKER_TOKENIZER_OPTIONS: Readonly<Omit<TokenizerOptions, 'cut'>> = Object.freeze({ cacheAdmission: 'second' });

/** The Worker's tokenizer over `cut` (jieba's `cut(text, true)`); `overrides` for experiments. */
export function createWorkerTokenizer(cut: ChineseCutter, overrides: Omit<TokenizerOptions, 'cut'> = {}): CachingTokenizer {
  return createTokenizer({ ...WORKER_TOKENIZER_OPTIONS, ...overrides, cut });
}
