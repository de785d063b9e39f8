/**
 * Tokens: the third stage. Text becomes normalised word tokens.
 *
 * Chinese runs are cut by jieba-wasm; the platform loads it (Node build in the companion, web
 * build with an explicit wasm URL in the extension's worker) and hands the `cut` function in, so
 * this folder never touches a platform API.
 */

/** jieba's `cut(text, hmm)` as a plain function of one Chinese run. */
export type ChineseCutter = (text: string) => string[];

export interface Tokenizer {
  /** NFKC-normalised, lower-cased tokens; no white space or punctuation tokens. */
  tokenize(text: string): string[];
  /**
   * The same tokens, read-only: a caching tokenizer hands out its cached array itself rather
   * than a copy. For callers that only read them (features, `readTokens`); optional, since a
   * tokenizer written for a test needs only `tokenize`.
   */
  tokensOf?(text: string): readonly string[];
  /**
   * The same tokens handed one by one to `emit`, each with `prefix`, in order: what a caller that
   * only walks them (a link's features) takes, so that a text the tokenizer will not keep needs
   * no array at all. Optional, like `tokensOf`.
   */
  eachToken?(text: string, prefix: string, emit: TokenEmit): void;
}

/**
 * Receives tokens one at a time with the caller's `prefix` (a feature namespace, `a:` / `c:`).
 * `id`, when given, is the token's id (`TokenIds`): whoever keeps something per token may find it
 * by the id instead of hashing the string. Ids are never reused, in any tokenizer, so an id names
 * one token text for good; a token may have several ids over time, or none.
 */
export type TokenEmit = (prefix: string, token: string, id?: number) => void;

/** `tokenizer`'s tokens of `text` to read, not to keep or change: no copy where it can spare one. */
export function readTokens(tokenizer: Tokenizer, text: string): readonly string[] {
  return tokenizer.tokensOf !== undefined ? tokenizer.tokensOf(text) : tokenizer.tokenize(text);
}

/** `tokenizer`'s tokens of `text` handed to `emit` with `prefix`, in order, without an array where it can spare one. */
export function emitTokens(tokenizer: Tokenizer, text: string, prefix: string, emit: TokenEmit): void {
  if (tokenizer.eachToken !== undefined) {
    tokenizer.eachToken(text, prefix, emit);
    return;
  }
  for (const token of readTokens(tokenizer, text)) emit(prefix, token);
}
