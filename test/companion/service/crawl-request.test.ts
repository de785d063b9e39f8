/** The crawl request's scope on the wire (issue 12): `scope`, and the older `sameSite` still accepted. */
import { describe, expect, it } from 'vitest';
import { checkCrawlRequest } from '../../../companion/service/crawl-request.ts';
import { requestScope } from '../../../shared/service-api/types.ts';

const seeds = ['https://example.org/'];

describe('crawl request scope', () => {
  it('reads scope, and sameSite true as seed-hosts', () => {
    expect(requestScope({ scope: 'seed-domains' })).toBe('seed-domains');
    expect(requestScope({ sameSite: true })).toBe('seed-hosts');
    expect(requestScope({})).toBe('any');
    expect(checkCrawlRequest({ seeds, scope: 'seed-hosts' }).sameSite).toBe(true);
    expect(checkCrawlRequest({ seeds, scope: 'any' }).sameSite).toBe(false);
    expect(checkCrawlRequest({ seeds, sameSite: true }).sameSite).toBe(true);
  });

  it('keeps seed-domains, and refuses in one line an unknown scope and a request that contradicts itself', () => {
    expect(checkCrawlRequest({ seeds, scope: 'seed-domains' }).scope).toBe('seed-domains');
    expect(checkCrawlRequest({ seeds, sameSite: true }).scope).toBe('seed-hosts');
    expect(() => checkCrawlRequest({ seeds, scope: 'site' })).toThrow('scope must be one of any, seed-hosts, seed-domains, got "site"');
    expect(() => checkCrawlRequest({ seeds, scope: 'any', sameSite: true })).toThrow(/disagree/);
  });
});
