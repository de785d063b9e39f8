/** Stage 4, features: the folder's public surface. */
export type { FeatureGroup, FeatureOptions, FeatureVector } from './types.ts';
export { DEFAULT_FEATURE_OPTIONS, addTokenCounts, emitLinkFeatures, linkFeatures, type FeatureEmit } from './link-features.ts';
export { FeatureList, type FeatureMemo, type FeatureSequence } from './feature-list.ts';
export { containsLexiconTerm, parseLexicon } from './lexicon.ts';
export { URL_NOISE_TOKENS, emitUrlFeatures, urlDirectories, urlTokens } from './url-tokens.ts';
export { pageFeatures, type PageText } from './page-features.ts';
