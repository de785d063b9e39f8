/**
 * The tokenizer: text → normalised word tokens (pipeline stage 3).
 *
 * Han et al. 2010 segment Chinese anchors and contexts into words before counting them (§3.2.1);
 * both the extension and the companion must produce the very same tokens for the same text,
 * or a model trained on one side would score differently on the other. So the rule is written
 * once here and only jieba's `cut` is platform-specific:
 *
 * 1. `normalizeText`: NFKC (full-width `ＡＢＣ１２３` → `abc123`, compatibility ideographs → their
 *    unified forms), then lower case; skipped where the text's code units show it changes
 *    nothing (`normal-form.ts`).
 * 2. Runs of `\p{Script=Han}` go to the injected `cut` (jieba-wasm, HMM on).
 * 3. Everything else is scanned for words: a run of letters, marks and digits of any non-Han
 *    script (Latin, Cyrillic, Greek, kana, hangul, …) — `debian`, `v2`, `москва`, `カタカナ`.
 *    Two such runs joined by one `.`, `_`, `-`, `'` or `’` stay one token (`node.js`, `v2.1`,
 *    `e-mail`, `don't`), and one or two trailing `+`/`#` not followed by a letter or digit are
 *    kept (`c++`, `c#`). Scripts written without spaces other than Chinese (Japanese kana, Thai)
 *    are not segmented further: a run is one token. Rules 2–3 are one regular expression,
 *    `RUN_PATTERN`, found by a scan over code points (`scan-runs.ts`).
 * 4. White space, punctuation and symbols never form tokens; stop words, if given, are dropped.
 *
 * Navigation anchors (`首页`, `下一页`, a site's menu) repeat on every page of a site, so results
 * are cached per input string in a bounded LRU; texts longer than `cacheMaxLength` (page bodies)
 * are tokenized but not cached, and the cache holds at most `cacheSize` texts and about
 * `cacheBytes` of heap (`tokenCacheEntryBytes`), whichever bound comes first.
 *
 * A text never seen before is mostly made of Han runs seen before: the context windows of
 * neighbouring links overlap, and a site's pages share their phrases (in the bench corpus's
 * anchors and contexts, 82 % of the 116,831 Han runs repeat an earlier one; 21,359 are
 * distinct). So jieba's pieces are also cached per Han run (a second bounded LRU, runs up to
 * `RUN_CACHE_MAX_LENGTH` characters, at most `DEFAULT_RUN_CACHE_BYTES` of heap). This changes no
 * token: the runs are cut one by one either way, and `cut` is a pure function of its run. On
 * never-seen contexts, jieba's `cut` had been a third of the Worker's scoring time (issue 14's
 * profile). A cached run's pieces are interned (`token-ids.ts`): one string per distinct piece,
 * and an id that `eachToken` hands on with it, so a feature list finds the piece's slot by id.
 */
import { LruCache } from './lru-cache.ts';
import { normalizeText } from './normal-form.ts';
import { ownString } from './own-string.ts';
import { scanRuns, type RunSink } from './scan-runs.ts';
import { SightingFilter } from './sighting-filter.ts';
import { TokenIds } from './token-ids.ts';
import type { ChineseCutter, TokenEmit, Tokenizer } from './types.ts';

export interface TokenizerOptions {
  /** jieba's `cut(text, true)` for one Han run; the platform loads it. Required. */
  cut: ChineseCutter;
  /** Tokens to drop, compared after `normalizeText`. Default: none (see `STOPWORDS`). */
  stopwords?: Iterable<string>;
  /** Most texts whose tokens are cached (LRU). Default 50,000; 0 turns caching off. */
  cacheSize?: number;
  /** Longest text (in UTF-16 units) whose tokens are cached. Default 1,000. */
  cacheMaxLength?: number;
  /** Most heap the cached texts and their tokens take, in bytes as `tokenCacheEntryBytes` estimates them. Default 8 MiB. */
  cacheBytes?: number;
  /**
   * Which sighting of a text caches it: 'first' (default), or 'second', when a `SightingFilter`
   * of `ADMISSION_SLOTS` remembers it was seen lately (`sighting-filter.ts` says why). Tokens
   * are the same either way; only what is kept, and so the time, differs.
   */
  cacheAdmission?: 'first' | 'second';
  /**
   * Most Han runs whose pieces are cached (LRU). Default 100,000, or 0 when `cacheSize` is 0 (so
   * `cacheSize: 0` alone still means no caching at all); 0 turns it off.
   */
  runCacheSize?: number;
  /** Most heap the cached runs and their pieces take (`tokenCacheEntryBytes`). Default 4 MiB. */
  runCacheBytes?: number;
}

/** A tokenizer with a look at its cache, for tests and diagnostics. */
export interface CachingTokenizer extends Tokenizer {
  /** Texts now cached; never more than `cacheCapacity`. */
  readonly cacheSize: number;
  readonly cacheCapacity: number;
}

export const DEFAULT_TOKEN_CACHE_SIZE = 50_000;
export const DEFAULT_TOKEN_CACHE_MAX_LENGTH = 1_000;
/**
 * The token cache's heap budget. By count alone, 50,000 entries took 23 MB on the frontier
 * bench's site (every link new, none hit once its page was done; issue 14's memory goal) and
 * could take ten times that with long contexts. On the pipeline bench's corpus (233,094 lookups,
 * 32,953 distinct texts, one pass) the LRU hits 85.86 % unbounded, 85.82 % within 8 MiB (11,616
 * entries), 85.73 % within 4 MiB, 83.9 % within 2 MiB: what recurs is few and short (navigation).
 */
export const DEFAULT_TOKEN_CACHE_BYTES = 8 * 2 ** 20;

/**
 * The heap one cached entry takes, roughly: two bytes per character of the text and of its
 * tokens, 48 per string and 160 for the entry (its `Map` slot, the token array, the LRU's links).
 * Measured after a GC, a filled cache took 582 B per entry on the pipeline corpus (690 estimated)
 * and 466 B on the frontier bench's anchors (506 estimated): an estimate on the high side, which
 * keeps the budget a bound.
 */
export function tokenCacheEntryBytes(text: string, tokens: readonly string[]): number {
  let chars = text.length;
  for (const token of tokens) chars += token.length;
  return 2 * chars + 48 * (tokens.length + 1) + 160;
}

/**
 * Texts the 'second' admission remembers (256 KiB): a 5,000-link page brings 15,000 texts, and a
 * site's template must still be remembered when the next page of the site comes.
 */
export const ADMISSION_SLOTS = 2 ** 16;

export const DEFAULT_RUN_CACHE_SIZE = 100_000;
/**
 * Longest Han run (in UTF-16 units) whose pieces are cached: 0.02 % of the bench corpus's runs
 * are longer, and a bound keeps 100,000 entries to a few MB.
 */
export const RUN_CACHE_MAX_LENGTH = 32;
/**
 * The run cache's heap budget, weighed as the text cache is (`tokenCacheEntryBytes`): the
 * corpus's 21,359 distinct runs fit in it; a crawl of pages that share no phrases (the frontier
 * bench's site) cannot grow it past this.
 */
export const DEFAULT_RUN_CACHE_BYTES = 4 * 2 ** 20;

/** NFKC, then lower case: the one normal form of tokens and of lexicon matching (`normal-form.ts`). */
export { normalizeText };

/**
 * A cached Han run's kept pieces, interned, with their ids (`token-ids.ts`): what `eachToken`
 * hands on with each piece, so that a feature list finds the piece's slot by its id.
 */
interface RunPieces {
  readonly tokens: readonly string[];
  readonly ids: readonly number[];
}

/** A run's weight in the run cache: its text and pieces (`tokenCacheEntryBytes`), 8 bytes an id and the entry's object. */
function runPiecesBytes(run: string, pieces: RunPieces): number {
  return tokenCacheEntryBytes(run, pieces.tokens) + 8 * pieces.ids.length + 32;
}

/** A token must hold at least one letter or digit (drops anything a cutter returns as punctuation). */
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

export function createTokenizer(options: TokenizerOptions): CachingTokenizer {
  const { cut } = options;
  const stopwords = new Set<string>();
  for (const word of options.stopwords ?? []) stopwords.add(normalizeText(word.trim()));
  const cache = new LruCache<string, readonly string[]>(options.cacheSize ?? DEFAULT_TOKEN_CACHE_SIZE, {
    maxWeight: options.cacheBytes ?? DEFAULT_TOKEN_CACHE_BYTES,
    weigh: tokenCacheEntryBytes,
  });
  const cacheMaxLength = options.cacheMaxLength ?? DEFAULT_TOKEN_CACHE_MAX_LENGTH;
  const doorkeeper = options.cacheAdmission === 'second' ? new SightingFilter(ADMISSION_SLOTS) : undefined;
  const runCache = new LruCache<string, RunPieces>(options.runCacheSize ?? (options.cacheSize === 0 ? 0 : DEFAULT_RUN_CACHE_SIZE), {
    maxWeight: options.runCacheBytes ?? DEFAULT_RUN_CACHE_BYTES,
    weigh: runPiecesBytes,
  });
  const tokenIds = new TokenIds();

  const keep = (token: string): boolean => HAS_WORD_CHAR.test(token) && !stopwords.has(token);

  /** jieba's pieces of one Han run that are kept as tokens, with their ids, from the run cache when there. */
  function piecesOf(han: string): RunPieces | readonly string[] {
    if (han.length > RUN_CACHE_MAX_LENGTH) return cut(han).filter(keep);
    let pieces = runCache.get(han);
    if (pieces === undefined) {
      const tokens = cut(han).filter(keep);
      const ids: number[] = new Array<number>(tokens.length).fill(0);
      tokenIds.intern(tokens, ids);
      pieces = { tokens, ids };
      runCache.set(ownString(han), pieces); // the run is a slice of the text: see ownString
    }
    return pieces;
  }

  /**
   * Where `scanRuns` hands a text's tokens: to `streamEmit`, each with `streamPrefix`. Set for the
   * length of one `stream` and put back after it, so an `emit` that tokenizes again is safe.
   */
  let streamPrefix = '';
  let streamEmit: TokenEmit = () => undefined;
  const sink: RunSink = {
    han(run) {
      const pieces = piecesOf(run);
      if (Array.isArray(pieces)) {
        for (let i = 0; i < pieces.length; i++) streamEmit(streamPrefix, pieces[i]!);
        return;
      }
      const { tokens, ids } = pieces as RunPieces;
      for (let i = 0; i < tokens.length; i++) streamEmit(streamPrefix, tokens[i]!, ids[i]!);
    },
    word(word, hasLetterOrDigit) {
      // A slice of the text: its own string (jieba's pieces are new strings already).
      if (hasLetterOrDigit && !stopwords.has(word)) streamEmit(streamPrefix, ownString(word));
    },
  };

  /** The tokens of `text` handed to `emit` one by one, in order, with `prefix`; nothing cached. */
  function stream(text: string, prefix: string, emit: TokenEmit): void {
    const outerPrefix = streamPrefix;
    const outerEmit = streamEmit;
    streamPrefix = prefix;
    streamEmit = emit;
    try {
      scanRuns(normalizeText(text), sink);
    } finally {
      streamPrefix = outerPrefix;
      streamEmit = outerEmit;
    }
  }

  /** The array `compute` fills: one per tokenizer, since `pushToken` calls nothing and `compute` never nests. */
  let tokens: string[] = [];
  const pushToken: TokenEmit = (_prefix, token) => {
    tokens.push(token);
  };

  /** The tokens of `text` in a new array; nothing cached. */
  function compute(text: string): string[] {
    const computed = (tokens = []);
    stream(text, '', pushToken);
    return computed;
  }

  /**
   * Whether `text`'s tokens are to be kept (looked up, else computed and cached): not when it is
   * too long, nor when it was not seen lately. In a cache of thousands of texts, a miss cost
   * ≈ 0.6 µs (issue 14's worker profile), the filter's hash a tenth of that. A cached text whose
   * slot another took is computed once more (the same tokens) and found again from its next
   * sighting. Records the sighting: ask once per use of the text.
   */
  function keeps(text: string): boolean {
    if (text.length > cacheMaxLength) return false;
    return doorkeeper === undefined || doorkeeper.sight(text);
  }

  /** The cached tokens of `text`, computed and cached on a miss; callers must not change them. */
  function cachedTokens(text: string): readonly string[] {
    let cached = cache.get(text);
    if (cached === undefined) {
      // Not frozen: V8's `slice` of a frozen array takes a slow path, ≈ 0.4 µs per hit
      // (bench/pipeline-bench.ts); `tokenize`'s copy keeps callers that change tokens out of it.
      cached = compute(text);
      cache.set(ownString(text), cached);
    }
    return cached;
  }

  /** The tokens of `text`, cached or not (`keeps`); callers must not change them. */
  function tokensOf(text: string): readonly string[] {
    return keeps(text) ? cachedTokens(text) : compute(text);
  }

  /**
   * The tokens of `text` to `emit`, in order. A text not kept (the Worker's texts on their first
   * sighting, nearly all of a new page's) builds no token array: on 5,000 new contexts that was
   * three arrays a link, filled and dropped (issue 14's worker profile).
   */
  function eachToken(text: string, prefix: string, emit: TokenEmit): void {
    if (!keeps(text)) {
      stream(text, prefix, emit);
      return;
    }
    const cached = cachedTokens(text);
    for (let i = 0; i < cached.length; i++) emit(prefix, cached[i]!);
  }

  return {
    // A copy: the contract's `string[]` is mutable, and a caller's push must not reach the cache.
    tokenize: (text: string): string[] => tokensOf(text).slice(),
    tokensOf,
    eachToken,
    get cacheSize() {
      return cache.size;
    },
    get cacheCapacity() {
      return cache.capacity;
    },
  };
}
