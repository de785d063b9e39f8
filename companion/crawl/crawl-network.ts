/**
 * What a crawl may reach, made of its seeds and options once they are known (a resumed crawl's
 * seeds are stored with it): the scope that decides which links and redirects are followed
 * (`url-scope.ts`), the address rule that decides where requests may connect
 * (`address-scope.ts`), and the fetcher that applies both.
 */
import { compileAddressScope } from './address-scope.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { createFetcher, type ClosableFetcher, type SharedPoliteness } from './default-fetcher.ts';
import { compileLinkRules, type CompiledLinkRules } from './link-rules.ts';

export interface CrawlNetwork {
  /** Which links may be queued (its `inScope` also which redirects are followed): `link-rules.ts`. */
  linkRules: CompiledLinkRules;
  fetcher: ClosableFetcher;
}

/** The network of a crawl of `seeds` (every seed, stored ones included); `shared` with a shared frontier. */
export async function connectCrawl(options: CrawlOptions, seeds: readonly string[], shared?: SharedPoliteness): Promise<CrawlNetwork> {
  // One compile for the fetcher's redirects and the event loop's links; a parse thread compiles
  // the same data (`source`) itself.
  const linkRules = compileLinkRules({ traps: options.traps, scope: options.scope, seeds: [...seeds] });
  const { inScope } = linkRules;
  const addresses = await compileAddressScope({
    seeds,
    allow: options.scope.allow,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.addressKind ? { addressKind: options.addressKind } : {}),
  });
  return { linkRules, fetcher: createFetcher(options, { ...(inScope ? { inScope } : {}), addresses }, shared) };
}
