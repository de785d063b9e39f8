/** Stage 4, features: the folder's public surface. */
export type { FeatureGroup, FeatureOptions, FeatureVector } from './types.ts';
export { DEFAULT_FEATURE_OPTIONS, addTokenCounts, linkFeatures } from './link-features.ts';
export { containsLexiconTerm, parseLexicon } from './lexicon.ts';
export { URL_NOISE_TOKENS, urlTokens } from './url-tokens.ts';
export { pageFeatures, type PageText } from './page-features.ts';
