/** URL helpers: normalisation of link URLs and user-given URL patterns. */
export { hostOf, normalizeUrl, parseUrl, urlHost, type WhatwgUrl } from './normalize-url.ts';
export { compileUrlPattern, compileUrlPatterns, matchesAny, namedHost, type UrlMatcher } from './url-pattern.ts';
