/**
 * jieba-wasm for the companion: the Node build, loaded once per process, behind the shared
 * tokenizer (pipeline stage 3).
 *
 * jieba-wasm's package `exports` list the `node` condition first, so the bare specifier resolves
 * to `pkg/nodejs` (CommonJS, wasm read synchronously from disk at import) under plain Node and
 * under Vitest alike; `test/companion/platform/jieba-node.test.ts` checks that a cut works
 * without the web build's async `init()`. TypeScript's `Bundler` resolution reads the web
 * build's types instead, whose `cut(text, hmm)` has the same signature.
 *
 * Measured cost (Node 20.20, 2 shared cores, three runs): importing the module 30–55 ms; the
 * first `cut` 225–250 ms, because jieba-rs builds its default dictionary lazily on first use
 * (+50 MB resident memory); after that a ten-character anchor takes ≈ 6 µs. `warm` (default
 * on) pays the first-call cost when the tokenizer is made, not on the first page crawled.
 */
import { cut } from 'jieba-wasm';
import { createTokenizer, type CachingTokenizer, type TokenizerOptions } from '../../shared/tokens/tokenizer.ts';
import type { ChineseCutter } from '../../shared/tokens/types.ts';

/** jieba's precise mode with HMM on (new words such as names are still joined). */
export const nodeChineseCutter: ChineseCutter = (text) => cut(text, true);

export interface NodeTokenizerOptions extends Omit<TokenizerOptions, 'cut'> {
  /** Build jieba's dictionary now (≈ 240 ms, once per process), not on the first cut. Default true. */
  warm?: boolean;
}

let warmed = false;

/**
 * A tokenizer over the Node jieba build. Each call returns a new tokenizer with its own cache;
 * the dictionary itself is built once per process and shared.
 */
export function loadNodeTokenizer(options: NodeTokenizerOptions = {}): CachingTokenizer {
  const { warm = true, ...tokenizerOptions } = options;
  if (warm && !warmed) {
    nodeChineseCutter('中文分词');
    warmed = true;
  }
  return createTokenizer({ ...tokenizerOptions, cut: nodeChineseCutter });
}
