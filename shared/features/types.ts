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
 */

/** Seed 000's feature groups: 1 = anchor words; 2 = anchor + context words + lexicon flags. */
export type FeatureGroup = 1 | 2;

export interface FeatureOptions {
  /** Which of seed 000's groups. Default 2. */
  group: FeatureGroup;
  /** Topic lexicon terms, matched as substrings of the normalised text. Default none. */
  lexicon: readonly string[];
  /** Add `u:` tokens from the URL's host and path. Default false. */
  urlTokens: boolean;
}

/** Feature name → count in this example (the Bernoulli form only looks at count > 0). */
export type FeatureVector = Map<string, number>;
