/**
 * A page on the web cannot make the crawler call services on loopback (issue 13, item 9: SSRF).
 * The rule (`companion/crawl/address-scope.ts`): public addresses always; loopback and private
 * ones only when a seed is on one of that kind or an --allow pattern names the host; 0.0.0.0
 * never. Applied at connect time to what a name resolves to then, so a link whose name resolves
 * to 127.0.0.1 is refused like a link to 127.0.0.1.
 *
 * Every server here is on loopback, and traffic never leaves it, so "the web" is a site on
 * 127.0.0.2 that the test declares public (`addressKind`), and the resolver is a stub that
 * records each name asked: the two things no test can own for real. The site on 127.0.0.1 is
 * "a service on loopback"; it must hear nothing.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { ScopeRules } from '../../../companion/crawl/url-scope.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { addressKind, type LookupFunction } from '../../../companion/fetch/address-guard.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

let web: ScriptedSite; // the public web, as far as the crawl is told
let service: ScriptedSite; // a service on loopback
let servicePort: string;
const cleanups: (() => void)[] = [];

const links = (hrefs: string[]) => `<html><body>${hrefs.map((href) => `<p><a href="${href}">${href}</a></p>`).join('')}</body></html>`;

beforeAll(async () => {
  service = await startScriptedSite({ page: () => '<p>the service</p>' });
  servicePort = new URL(service.origin).port;
  web = await startScriptedSite({
    address: '127.0.0.2',
    page: (path) =>
      path === '/'
        ? links([`${service.origin}/api/secret`, `http://0.0.0.0:${servicePort}/api/zero`, `http://rebind.test:${servicePort}/api/rebind`, '/go', '/ok'])
        : '<p>a public page</p>',
    redirect: (path) => (path === '/go' ? `${service.origin}/api/redirected` : undefined),
  });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await web.close();
  await service.close();
});

/** 127.0.0.2 stands for the web; every other address is what it is. */
const webIsPublic = (address: string) => (address === '127.0.0.2' ? 'public' : addressKind(address));

/** The resolver: `rebind.test` answers 127.0.0.1 (a name on the web that points home); nothing else resolves. */
function resolver(asked: string[]): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    asked.push(hostname);
    if (hostname !== 'rebind.test') return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
}

async function crawl(seeds: string[], scope: ScopeRules = { scope: 'any', allow: [], deny: [] }) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const outDir = join(dir, 'out');
  const asked: string[] = [];
  const summary = await runCrawl({ seeds, outDir, maxPages: 20, strategy: createStrategy('bfs'), delayMs: 0, scope, lookup: resolver(asked), addressKind: webIsPublic, log: () => {} });
  const byUrl = new Map(readPages(outDir).map((page) => [page.url, page]));
  return { summary, byUrl, asked };
}

describe('a crawl whose seeds are public', () => {
  it('never connects to loopback, whether linked by address, by 0.0.0.0, by a name that resolves there, or by a redirect', async () => {
    const heard = service.requests.length;
    const { byUrl, asked, summary } = await crawl([`${web.origin}/`]);
    expect(service.requests.length).toBe(heard); // not even robots.txt
    expect(summary.fetched).toBe(2); // the home page and /ok: a refused URL was never requested, and costs no budget
    const loopback = 'is a loopback address and no seed is: not fetched (an --allow pattern naming the host lets it in)';
    expect(byUrl.get(`${service.origin}/api/secret`)).toMatchObject({ outcome: 'address-denied', status: 0, error: `127.0.0.1 ${loopback}` });
    expect(byUrl.get(`http://0.0.0.0:${servicePort}/api/zero`)).toMatchObject({
      outcome: 'address-denied',
      error: '0.0.0.0 is never fetched: an unspecified, multicast or reserved address',
    });
    expect(byUrl.get(`http://rebind.test:${servicePort}/api/rebind`)).toMatchObject({ outcome: 'address-denied', error: `rebind.test (127.0.0.1) ${loopback}` });
    expect(asked).toContain('rebind.test'); // resolved when connecting, then refused
    expect(byUrl.get(`${web.origin}/go`)).toMatchObject({ outcome: 'address-denied', status: 302, error: `redirect to ${service.origin}/api/redirected: 127.0.0.1 ${loopback}` });
    expect(byUrl.get(`${web.origin}/ok`)).toMatchObject({ outcome: 'ok' });
  });

  it('reaches a loopback host an --allow pattern names, and still never 0.0.0.0', async () => {
    const heard = service.requests.length;
    const { byUrl } = await crawl([`${web.origin}/`], { scope: 'any', allow: ['127.0.0.2', '127.0.0.1', '0.0.0.0'], deny: [] });
    expect(byUrl.get(`${service.origin}/api/secret`)).toMatchObject({ outcome: 'ok' });
    expect(byUrl.get(`${web.origin}/go`)).toMatchObject({ outcome: 'ok', finalUrl: `${service.origin}/api/redirected` });
    expect(byUrl.get(`http://0.0.0.0:${servicePort}/api/zero`)).toMatchObject({ outcome: 'address-denied' });
    const paths = service.requests.slice(heard).map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['/api/secret', '/api/redirected']));
    expect(paths).not.toContain('/api/zero');
  });
});

describe('a crawl whose seeds are on loopback (tests, benches, an intranet mirror)', () => {
  it('follows links to other loopback addresses, and still never 0.0.0.0', async () => {
    const local = await startScriptedSite({
      page: (path) => (path === '/' ? links([`${service.origin}/fine`, `http://0.0.0.0:${servicePort}/zero`]) : '<p>local</p>'),
    });
    try {
      const heard = service.requests.length;
      const { byUrl } = await crawl([`${local.origin}/`]);
      expect(byUrl.get(`${service.origin}/fine`)).toMatchObject({ outcome: 'ok' });
      expect(byUrl.get(`http://0.0.0.0:${servicePort}/zero`)).toMatchObject({ outcome: 'address-denied' });
      expect(service.requests.slice(heard).map((r) => r.path)).not.toContain('/zero');
    } finally {
      await local.close();
    }
  });
});
