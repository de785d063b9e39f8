/**
 * RobotsCache against real robots.txt responses: rules and Crawl-delay, one fetch per origin
 * even under concurrency (counted server-side), and the status conventions (4xx allow all,
 * 5xx/unreachable disallow for a while, redirects followed, 500 KiB cap).
 */
import { Agent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS, DEFAULT_USER_AGENT, type FetchOptions } from '../../../companion/fetch/fetch-options.ts';
import { closeSharedAgents } from '../../../companion/fetch/http-agent.ts';
import { RobotsCache } from '../../../companion/fetch/robots.ts';
import { startHostileServer, type HostileServer, type RobotsMode } from '../support/hostile-server.ts';

const fetchOptions: FetchOptions = { ...DEFAULT_FETCH_OPTIONS, responseTimeoutMs: 3_000 };
const servers: HostileServer[] = [];

async function serve(robots: RobotsMode = 'normal'): Promise<HostileServer> {
  const server = await startHostileServer({ robots });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await closeSharedAgents();
});

const cache = (extra: Partial<ConstructorParameters<typeof RobotsCache>[0]> = {}): RobotsCache =>
  new RobotsCache({ userAgent: DEFAULT_USER_AGENT, fetch: fetchOptions, ...extra });

describe('RobotsCache rules', () => {
  it('applies the * group: /private disallowed, the rest allowed, Crawl-delay in ms', async () => {
    const { origin } = await serve();
    const robots = cache();
    expect(await robots.isAllowed(`${origin}/`)).toBe(true);
    expect(await robots.isAllowed(`${origin}/site/a?x=1`)).toBe(true);
    expect(await robots.isAllowed(`${origin}/private/secret`)).toBe(false);
    expect(await robots.isAllowed(`${origin}/private`)).toBe(false);
    expect(await robots.crawlDelayMs(`${origin}/site/a`)).toBe(1_000);
  });

  it('applies a group named for the user agent instead of *', async () => {
    const { origin } = await serve();
    const robots = cache({ userAgent: 'BadBot/2.0 (+https://example.invalid)' });
    expect(await robots.isAllowed(`${origin}/`)).toBe(false);
    expect(await robots.isAllowed(`${origin}/robots.txt`)).toBe(true);
    expect(await robots.crawlDelayMs(`${origin}/`)).toBeUndefined();
  });

  it('sends our User-Agent for robots.txt', async () => {
    const server = await serve();
    await cache().isAllowed(`${server.origin}/`);
    expect(server.requests.find((r) => r.path === '/robots.txt')?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
  });

  it('caps an excessive Crawl-delay', async () => {
    const { origin } = await serve();
    expect(await cache({ maxCrawlDelayMs: 250 }).crawlDelayMs(`${origin}/`)).toBe(250);
  });

  it('never allows a non-HTTP or unparsable URL', async () => {
    const robots = cache();
    expect(await robots.isAllowed('ftp://127.0.0.1/file')).toBe(false);
    expect(await robots.isAllowed('not a url')).toBe(false);
  });
});

describe('RobotsCache fetching', () => {
  it('fetches robots.txt once per origin, even for many concurrent callers', async () => {
    const server = await serve('slow'); // answers after 150 ms, so all callers overlap
    const robots = cache();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? robots.isAllowed(`${server.origin}/site/${i}`) : robots.crawlDelayMs(`${server.origin}/p${i}`))),
    );
    expect(answers.filter((a) => a === true)).toHaveLength(10);
    expect(answers.filter((a) => a === 1_000)).toHaveLength(10);
    expect(await robots.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(server.hits('/robots.txt')).toBe(1);
  });

  it('keeps separate verdicts for separate origins', async () => {
    const [open, broken] = [await serve('not-found'), await serve('server-error')];
    const robots = cache();
    expect(await robots.isAllowed(`${open.origin}/private/secret`)).toBe(true);
    expect(await robots.isAllowed(`${broken.origin}/site/a`)).toBe(false);
  });

  it('allows everything when robots.txt is 404', async () => {
    const server = await serve('not-found');
    const robots = cache();
    expect(await robots.isAllowed(`${server.origin}/private/secret`)).toBe(true);
    expect(await robots.crawlDelayMs(`${server.origin}/`)).toBeUndefined();
    expect(server.hits('/robots.txt')).toBe(1);
  });

  it('disallows everything while robots.txt answers 5xx, and asks again after unreachableRetryMs', async () => {
    const server = await serve('server-error');
    const robots = cache({ unreachableRetryMs: 200 });
    expect(await robots.isAllowed(`${server.origin}/site/a`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/site/b`)).toBe(false);
    expect(server.hits('/robots.txt')).toBe(1);
    expect((await robots.verdict(server.origin)).kind).toBe('disallow-all');
    await new Promise((r) => setTimeout(r, 250));
    await Promise.all([robots.isAllowed(`${server.origin}/site/a`), robots.isAllowed(`${server.origin}/site/c`)]);
    expect(server.hits('/robots.txt')).toBe(2);
  });

  it('disallows everything when the origin cannot be reached', async () => {
    const { refusedOrigin } = await serve();
    const robots = cache();
    expect(await robots.isAllowed(`${refusedOrigin}/`)).toBe(false);
    expect(await robots.verdict(refusedOrigin)).toMatchObject({ kind: 'disallow-all', status: 0, reason: 'robots.txt unreachable: connection refused', transient: true });
    // No answer at all: the host is unreachable, which a crawl records as such, not as a refusal.
    expect(await robots.access(`${refusedOrigin}/`)).toMatchObject({ noAnswer: { outcome: 'network-error', message: 'connection refused' } });
  });

  it('says nothing of no answer when the host answered, if only with an error', async () => {
    const server = await serve('server-error');
    const access = await cache().access(`${server.origin}/`);
    expect(access).toMatchObject({ reason: 'robots.txt answered HTTP 500', transient: true });
    expect(access).not.toHaveProperty('noAnswer');
  });

  it('stops a caller\'s wait when its signal aborts; close() ends the fetch itself', async () => {
    const server = await serve();
    const robots = cache();
    const controller = new AbortController();
    // silentHost accepts and never answers: robots.txt stays in flight.
    const asking = robots.access(`http://${server.silentHost}/page`, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(asking).rejects.toThrow('stopped');
    robots.close();
    expect(await robots.access(`http://${server.silentHost}/page`)).toMatchObject({ reason: 'robots.txt unreachable: request aborted' });
  });

  it('marks an unresolvable host name as not transient: no point asking it again soon', async () => {
    // undici with a connector that fails as getaddrinfo does for an unknown name; no lookup is made.
    const dispatcher = new Agent({
      connect: (_options, callback) => callback(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' }), null),
    });
    try {
      const robots = cache({ dispatcher });
      expect(await robots.access('http://nowhere.test/page')).toMatchObject({ reason: 'robots.txt unreachable: host not found (DNS)', transient: false });
    } finally {
      await dispatcher.close();
    }
  });

  it('follows a redirect and applies the rules to the origin that was asked about', async () => {
    const server = await serve('redirect');
    const robots = cache();
    expect(await robots.isAllowed(`${server.origin}/private/secret`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/site/a`)).toBe(true);
    expect(server.hits('/robots-moved.txt')).toBe(1);
  });

  it('reads only the first 500 KiB: a rule after the cap is ignored', async () => {
    const server = await serve('huge');
    const robots = cache();
    expect(await robots.isAllowed(`${server.origin}/after-cap`)).toBe(true);
    expect((await robots.verdict(server.origin)).kind).toBe('rules');
  });

  // Issue 13, item 10: 400 KiB of `/*a*a*…*b` rules, within the byte cap, cost seconds per URL.
  it('drops the costly wildcard rules past the budget before matching; rules before and plain rules after still hold', async () => {
    const server = await serve('wildcards');
    const robots = cache();
    expect(await robots.isAllowed(`${server.origin}/early/page`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/late/page`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/elsewhere`)).toBe(true);
    expect(await robots.isAllowed(`${server.origin}/x/aaaaaaaaaab`)).toBe(false);
    const verdict = await robots.verdict(server.origin);
    expect(verdict.kind === 'rules' && verdict.droppedRules).toBeGreaterThan(11_000);
  });
});
