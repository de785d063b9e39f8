/** Pipeline stage 2: each link with its anchor and context (Han et al. 2010 §3.3). */
export type { LinkContext } from './types.ts';
export { type ContextOptions, DEFAULT_CONTEXT_WINDOW, extractContexts, MAX_LINKS_PER_PAGE } from './extract-contexts.ts';
