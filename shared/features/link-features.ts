/**
 * Link features (pipeline stage 4): a link context becomes a bag of namespaced features in one
 * of Han et al. 2010's feature groups (§4.2, Table 1):
 *   group 1: `a:` anchor words;
 *   group 2: `a:` anchor words, `c:` context words (before and after), and the flags
 *            `lex:anchor` / `lex:context` when the anchor / either context contains a lexicon term.
 * `u:` URL tokens may be added to either group (`urlTokens`). Word features count occurrences;
 * a flag is 1 when present and absent otherwise, so the Bernoulli model sees presence, the
 * multinomial model sees counts.
 */
import type { LinkContext } from '../contexts/types.ts';
import type { Tokenizer } from '../tokens/types.ts';
import { containsLexiconTerm } from './lexicon.ts';
import type { FeatureOptions, FeatureVector } from './types.ts';
import { urlTokens } from './url-tokens.ts';

/** Seed 000's best group (2), no lexicon, no URL tokens. Frozen: copy it to change a field. */
export const DEFAULT_FEATURE_OPTIONS: Readonly<FeatureOptions> = Object.freeze({
  group: 2,
  lexicon: Object.freeze([]) as readonly string[],
  urlTokens: false,
});

/** Adds one count per token under `prefix`. Shared with the page features. */
export function addTokenCounts(vector: FeatureVector, prefix: string, tokens: Iterable<string>): void {
  for (const token of tokens) {
    const name = prefix + token;
    vector.set(name, (vector.get(name) ?? 0) + 1);
  }
}

/** The features of one link context; see the file header for the groups and namespaces. */
export function linkFeatures(context: LinkContext, tokenizer: Tokenizer, options: FeatureOptions): FeatureVector {
  const { group, lexicon } = options;
  if (group !== 1 && group !== 2) throw new RangeError(`feature group must be 1 or 2, got ${String(group)}`);
  const vector: FeatureVector = new Map();
  addTokenCounts(vector, 'a:', tokenizer.tokenize(context.anchor));
  if (group === 2) {
    addTokenCounts(vector, 'c:', tokenizer.tokenize(context.before));
    addTokenCounts(vector, 'c:', tokenizer.tokenize(context.after));
    // Before and after are matched apart: a term must not be made up across the link between them.
    if (containsLexiconTerm(lexicon, context.anchor)) vector.set('lex:anchor', 1);
    if (containsLexiconTerm(lexicon, context.before, context.after)) vector.set('lex:context', 1);
  }
  if (options.urlTokens) addTokenCounts(vector, 'u:', urlTokens(context.url, tokenizer));
  return vector;
}
