/**
 * The Worker's tokenizer: the shared `createTokenizer` (no stop words, jieba with HMM), so its
 * tokens are the companion's to the last one, with a text cache that keeps a text from its second
 * sighting on (`cacheAdmission: 'second'`, `shared/tokens/sighting-filter.ts`), and a larger
 * Han-run cache than the companion's.
 *
 * Why the admission (issue 14): the Worker is handed pages of links whose texts are mostly new,
 * and caching each on its first sighting cost more than it saved: in the profile of
 * bench/extension/worker-node.ts (45,000 new contexts), `scoreLinks` took 1,379 ms with every
 * text cached and 996 ms with this admission, and the process's GC 809 → 571 ms.
 *
 * Why the run cache's budget (issue 14): a text new to the Worker is mostly made of Han runs it
 * has cut before, and a run that has left the cache goes to jieba again. The shared default
 * (4 MiB, `DEFAULT_RUN_CACHE_BYTES`, kept small for the companion's crawl memory) holds fewer runs
 * than one documentation site brings: the extension bench's pool of 10,698 contexts has 10,224
 * distinct runs, 4.54 MiB as the cache weighs them, so the LRU cycled and every page re-cut runs
 * it had cut a few pages before (pages 16–40 of the bench's 5,000-link pages: 183–284 cuts a page
 * at 4 MiB, 96–213 at 8 or 16 MiB and falling; the rest are runs cut short at a context window's
 * edge, new on every page). In Chromium's profile of the probe, jieba's `cut` was 7.5 ms of the
 * Worker's ≈ 131 ms per 5,000 new contexts, so this spares about 2 % of it: small, but it
 * costs no token and no code. 16 MiB (about 50,000 runs) costs the Worker, whose jieba dictionary
 * alone takes ≈ 70 MB, at most that much heap.
 *
 * Only what is kept changes, never a token. The Node harness builds its tokenizer here too, so
 * the two cannot drift.
 */
import { createTokenizer, type CachingTokenizer, type TokenizerOptions } from '../../shared/tokens/tokenizer.ts';
import type { ChineseCutter } from '../../shared/tokens/types.ts';

/** The Worker's Han-run cache budget, in bytes as `tokenCacheEntryBytes` weighs them (see the header). */
export const WORKER_RUN_CACHE_BYTES = 16 * 2 ** 20;

export const WORKER_TOKENIZER_OPTIONS: Readonly<Omit<TokenizerOptions, 'cut'>> = Object.freeze({ cacheAdmission: 'second', runCacheBytes: WORKER_RUN_CACHE_BYTES });

/** The Worker's tokenizer over `cut` (jieba's `cut(text, true)`); `overrides` for experiments. */
export function createWorkerTokenizer(cut: ChineseCutter, overrides: Omit<TokenizerOptions, 'cut'> = {}): CachingTokenizer {
  return createTokenizer({ ...WORKER_TOKENIZER_OPTIONS, ...overrides, cut });
}
