/** The crawl request's scope on the wire (issue 12): `scope`, and the older `sameSite` still accepted. */
import { describe, expect, it } from 'vitest';
import { CRAWL_LIMITS } from '../../../companion/crawl/crawl-limits.ts';
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

// Issue 13, item 11: a 1 MB seed made every listing 1 MB.
describe('crawl request bounds', () => {
  it('refuses in one line a seed past CRAWL_LIMITS.seedLength, too many seeds, and the command line\'s numeric bounds', () => {
    const long = `https://example.org/${'a'.repeat(CRAWL_LIMITS.seedLength)}`;
    expect(() => checkCrawlRequest({ seeds: [long] })).toThrow(`is ${long.length} characters long, at most ${CRAWL_LIMITS.seedLength}`);
    const many = Array.from({ length: CRAWL_LIMITS.seeds + 1 }, (_, i) => `https://example.org/${i}`);
    expect(() => checkCrawlRequest({ seeds: many })).toThrow(`seeds: ${CRAWL_LIMITS.seeds + 1} given, at most ${CRAWL_LIMITS.seeds}`);
    expect(() => checkCrawlRequest({ seeds, concurrency: 100_000 })).toThrow(`concurrency must be a whole number from 1 to ${CRAWL_LIMITS.concurrency}, got 100000`);
    expect(() => checkCrawlRequest({ seeds, delayMs: 1e12 })).toThrow(`delayMs must be a whole number from 0 to ${CRAWL_LIMITS.delayMs}`);
  });
});
