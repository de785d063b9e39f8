/**
 * Features: the fourth stage. A link context becomes a bag of named features.
 *
 * Names carry their namespace so that a word in the anchor and the same word in the context are
 * different features (Han et al. 2010, feature group 2):
 *   `a:<token>`   anchor word            (groups 1 and 2)
 *   `c:<token>`   context word           (group 2)
 *   `lex:anchor`  anchor contains a lexicon term  (group 2)
 *   `lex:context` context contains a lexicon term (group 2)
 *   `u:<token>`   URL token              (optional extra, either group)
 *   `d:<prefix>`  a host or directory the URL lies under (with URL tokens, feature version 2)
 *
 * Two kinds of feature, which the `mixed` Naive Bayes form models differently
 * (`shared/model/naive-bayes.ts`): *words* (`a:`, `c:`), drawn from a link's text, and
 * *attributes* (`u:`, `d:`, `lex:`), which a link either has or has not: a URL lies under
 * `/text/scalc/` or it does not, and its not lying there is evidence too.
 */

/** Whether a feature is an attribute (`u:`, `d:`, `lex:`) rather than a word. */
export function isAttributeFeature(name: string): boolean {
  return name.startsWith('u:') || name.startsWith('d:') || name.startsWith('lex:');
}

/**
 * Which rules turn a context into features. A model is only ever scored with the version it was
 * trained with (the topic carries it), so a new version never changes what an old model means.
 *   1: word features count occurrences; URL tokens from the host and path only.
 *   2: word features are present or absent (a word a menu repeats in every item is one piece
 *      of evidence, not three); URL tokens also from the query string's words; `d:` features
 *      for the host, its parent domains and every directory above the URL.
 */
export type FeatureVersion = 1 | 2;

/** The version new topics and new model files get. */
export const FEATURE_VERSION: FeatureVersion = 2;

/** Seed 000's feature groups: 1 = anchor words; 2 = anchor + context words + lexicon flags. */
export type FeatureGroup = 1 | 2;

export interface FeatureOptions {
  /** Which of seed 000's groups. Default 2. */
  group: FeatureGroup;
  /** Topic lexicon terms, matched as substrings of the normalised text. Default none. */
  lexicon: readonly string[];
  /** Add URL features: `u:` tokens (and with version 2, `d:` hosts and directories). Default false. */
  urlTokens: boolean;
  /** The feature rules (`FeatureVersion`). Default 1, the rules models were trained with before versions existed. */
  version?: FeatureVersion;
}

/** Feature name → count in this example (the Bernoulli form only looks at count > 0). */
export type FeatureVector = Map<string, number>;
