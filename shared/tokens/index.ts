/** Stage 3, tokens: the folder's public surface. */
export { readTokens, type ChineseCutter, type Tokenizer } from './types.ts';
export type { CachingTokenizer, TokenizerOptions } from './tokenizer.ts';
export {
  createTokenizer,
  normalizeText,
  DEFAULT_TOKEN_CACHE_SIZE,
  DEFAULT_TOKEN_CACHE_MAX_LENGTH,
  DEFAULT_TOKEN_CACHE_BYTES,
  tokenCacheEntryBytes,
} from './tokenizer.ts';
export { STOPWORDS } from './stopwords.ts';
export { LruCache, type LruWeightOptions } from './lru-cache.ts';
