/**
 * Link features (pipeline stage 4): a link context becomes a bag of namespaced features in one
 * of Han et al. 2010's feature groups (§4.2, Table 1):
 *   group 1: `a:` anchor words;
 *   group 2: `a:` anchor words, `c:` context words (before and after), and the flags
 *            `lex:anchor` / `lex:context` when the anchor / either context contains a lexicon term.
 * URL features may be added to either group (`urlTokens`): `u:` tokens, and from feature version
 * 2 `d:` hosts and directories (`url-tokens.ts`).
 *
 * Values (`FeatureVersion`, `types.ts`): in version 1 a word feature counts its occurrences; in
 * version 2 every feature is 1, present or absent. A link's context is usually its neighbours'
 * anchors, and a menu repeats its word in every item ("Fix 函数 | Cos 函数 | Exp 函数"): counted,
 * that one word outvotes the link's own URL three times over. Binarised word counts are the
 * better multinomial Naive Bayes on short texts (Schneider 2004, "On word frequency information
 * and negative evidence in Naive Bayes text classification"; Metsis et al. 2006, "Spam filtering
 * with Naive Bayes — which Naive Bayes?"). Lexicon flags are 1 in either version.
 */
import type { LinkContext } from '../contexts/types.ts';
import type { Tokenizer } from '../tokens/types.ts';
import { containsLexiconTerm } from './lexicon.ts';
import type { FeatureOptions, FeatureVector } from './types.ts';
import { urlDirectories, urlTokens } from './url-tokens.ts';

/** Seed 000's best group (2), no lexicon, no URL tokens, version 1. Frozen: copy it to change a field. */
export const DEFAULT_FEATURE_OPTIONS: Readonly<FeatureOptions> = Object.freeze({
  group: 2,
  lexicon: Object.freeze([]) as readonly string[],
  urlTokens: false,
  version: 1,
});

/** Adds one count per token under `prefix`. Shared with the page features. */
export function addTokenCounts(vector: FeatureVector, prefix: string, tokens: Iterable<string>): void {
  for (const token of tokens) {
    const name = prefix + token;
    vector.set(name, (vector.get(name) ?? 0) + 1);
  }
}

/** Sets each token under `prefix` to 1: present, however often. */
function addTokenPresence(vector: FeatureVector, prefix: string, tokens: Iterable<string>): void {
  for (const token of tokens) vector.set(prefix + token, 1);
}

/** The features of one link context; see the file header for the groups, namespaces and versions. */
export function linkFeatures(context: LinkContext, tokenizer: Tokenizer, options: FeatureOptions): FeatureVector {
  const { group, lexicon } = options;
  const version = options.version ?? 1;
  if (group !== 1 && group !== 2) throw new RangeError(`feature group must be 1 or 2, got ${String(group)}`);
  if (version !== 1 && version !== 2) throw new RangeError(`feature version must be 1 or 2, got ${String(version)}`);
  const addWords = version === 1 ? addTokenCounts : addTokenPresence;
  const vector: FeatureVector = new Map();
  addWords(vector, 'a:', tokenizer.tokenize(context.anchor));
  if (group === 2) {
    addWords(vector, 'c:', tokenizer.tokenize(context.before));
    addWords(vector, 'c:', tokenizer.tokenize(context.after));
    // Before and after are matched apart: a term must not be made up across the link between them.
    if (containsLexiconTerm(lexicon, context.anchor)) vector.set('lex:anchor', 1);
    if (containsLexiconTerm(lexicon, context.before, context.after)) vector.set('lex:context', 1);
  }
  if (options.urlTokens) {
    if (version === 1) addTokenCounts(vector, 'u:', urlTokens(context.url, tokenizer));
    else {
      addTokenPresence(vector, 'u:', urlTokens(context.url, tokenizer, { query: true }));
      addTokenPresence(vector, 'd:', urlDirectories(context.url));
    }
  }
  return vector;
}
