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
import { emitTokens, type Tokenizer } from '../tokens/types.ts';
import { containsLexiconTerm } from './lexicon.ts';
import type { FeatureOptions, FeatureVector } from './types.ts';
import { emitUrlFeatures } from './url-tokens.ts';

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

/**
 * Receives a link's features one occurrence at a time, in the order `linkFeatures` enters them:
 * the feature is `prefix + value` (`a:` / `c:` / `u:` + a token, `lex:` + `anchor` / `context`,
 * `d:` + a directory). Version 1 counts repeated occurrences, version 2 keeps one. `id`: the
 * token's id when the tokenizer gave one (`TokenEmit`), the same feature either way.
 */
export type FeatureEmit = (prefix: string, value: string, id?: number) => void;

/** Checks the options' group and version, as every featurisation does before its first feature. */
function checkOptions(options: FeatureOptions): { group: 1 | 2; version: 1 | 2 } {
  const { group } = options;
  const version = options.version ?? 1;
  if (group !== 1 && group !== 2) throw new RangeError(`feature group must be 1 or 2, got ${String(group)}`);
  if (version !== 1 && version !== 2) throw new RangeError(`feature version must be 1 or 2, got ${String(version)}`);
  return { group, version };
}

/**
 * The features of one link context, emitted in order (see the file header for the groups,
 * namespaces and versions). `linkFeatures` collects them in a vector; a scorer that needs no
 * vector (`FeatureList`) takes them as they come, and both see the same features in the same order.
 */
export function emitLinkFeatures(context: LinkContext, tokenizer: Tokenizer, options: FeatureOptions, emit: FeatureEmit): void {
  const { group, version } = checkOptions(options);
  emitTokens(tokenizer, context.anchor, 'a:', emit);
  if (group === 2) {
    emitTokens(tokenizer, context.before, 'c:', emit);
    emitTokens(tokenizer, context.after, 'c:', emit);
    // Before and after are matched apart: a term must not be made up across the link between them.
    const { lexicon } = options;
    // No lexicon, no flags: asked anyway, the empty lexicon cost two calls per link to find none.
    if (lexicon.length > 0) {
      if (containsLexiconTerm(lexicon, context.anchor)) emit('lex:', 'anchor');
      if (containsLexiconTerm(lexicon, context.before, context.after)) emit('lex:', 'context');
    }
  }
  // Version 1: host and path tokens only; version 2 adds the query's words and the directories.
  if (options.urlTokens) emitUrlFeatures(context.url, tokenizer, { query: version === 2, directories: version === 2 }, emit);
}

/** The features of one link context; see the file header for the groups, namespaces and versions. */
export function linkFeatures(context: LinkContext, tokenizer: Tokenizer, options: FeatureOptions): FeatureVector {
  const vector: FeatureVector = new Map();
  const counted = checkOptions(options).version === 1;
  emitLinkFeatures(context, tokenizer, options, (prefix, value) => {
    const name = prefix + value;
    // Version 1 counts words; a flag is emitted once, so it is 1 either way.
    vector.set(name, counted ? (vector.get(name) ?? 0) + 1 : 1);
  });
  return vector;
}
