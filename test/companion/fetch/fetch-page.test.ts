/**
 * fetchPage against the hostile loopback server: the normal site, redirects, content types and
 * content codings. Limits, timeouts and network failures are in fetch-limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS, DEFAULT_USER_AGENT, type FetchOptions } from '../../../companion/fetch/fetch-options.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { closeSharedAgents } from '../../../companion/fetch/http-agent.ts';
import { RobotsCache } from '../../../companion/fetch/robots.ts';
import { CHINESE_TEXT, startHostileServer, type HostileServer } from '../support/hostile-server.ts';

const options: FetchOptions = { ...DEFAULT_FETCH_OPTIONS, responseTimeoutMs: 5_000, maxBytes: 1024 * 1024 };
let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await closeSharedAgents();
  await server.close();
});

describe('fetchPage: a normal page', () => {
  it('returns decoded HTML with status, type, charset and size', async () => {
    const page = await fetchPage(`${server.origin}/site/a`, options);
    expect(page).toMatchObject({
      url: `${server.origin}/site/a`, finalUrl: `${server.origin}/site/a`, status: 200,
      contentType: 'text/html', charset: 'utf-8', charsetSource: 'header', outcome: 'ok', redirects: [],
    });
    expect(page.html).toContain('Page A about crawling.');
    expect(page.bytes).toBe(Buffer.byteLength(page.html!));
    expect(page.error).toBeUndefined();
  });

  it('sends a clear User-Agent, an HTML Accept and the encodings it can undo', async () => {
    await fetchPage(`${server.origin}/site/b?headers=1`, options);
    const seen = server.requests.find((r) => r.path === '/site/b?headers=1')!;
    expect(seen.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(seen.headers.accept).toMatch(/^text\/html,application\/xhtml\+xml/);
    expect(seen.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('reuses keep-alive connections instead of opening one per request', async () => {
    // undici's pool may open a second socket while the first is still being marked free, so
    // the check is "far fewer sockets than requests", not "exactly one".
    for (let i = 0; i < 6; i++) await fetchPage(`${server.origin}/site/c?keepalive=${i}`, options);
    const ports = new Set(server.requests.filter((r) => r.path.startsWith('/site/c?keepalive')).map((r) => r.remotePort));
    expect(ports.size).toBeLessThanOrEqual(2);
  });

  // Regression (hostile server): it added a 'close' listener to the socket per request, so a
  // keep-alive socket carrying more than ten requests set off MaxListenersExceededWarning.
  it('carries many requests on one keep-alive socket without piling up listeners', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 15; i++) await fetchPage(`${server.origin}/site/c?listeners=${i}`, options);
      await new Promise((r) => setTimeout(r, 20)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('serves the endless URL spaces the crawl loop must bound (hostile-server contract)', async () => {
    expect((await fetchPage(`${server.origin}/trap/41`, options)).html).toContain('href="/trap/42"');
    const cal = await fetchPage(`${server.origin}/cal?d=1&d=2`, options);
    expect(cal.html).toContain('href="/cal?d=1&d=2&d=3"');
  });

  it('returns malformed HTML as it came, for the parser to cope with', async () => {
    const page = await fetchPage(`${server.origin}/malformed`, options);
    expect(page.outcome).toBe('ok');
    expect(page.html).toContain('<a href=/site/a>A</div></span> &nbsp &amp;&bogus;');
  });

  it('reports a bad URL or scheme in one line without a request', async () => {
    expect(await fetchPage('not a url', options)).toMatchObject({ outcome: 'network-error', status: 0, error: 'invalid URL: not a url' });
    expect(await fetchPage('ftp://127.0.0.1/x', options)).toMatchObject({ outcome: 'network-error', error: 'unsupported scheme ftp:' });
  });
});

describe('fetchPage: redirects', () => {
  it('follows a chain within the limit and lists every hop', async () => {
    const page = await fetchPage(`${server.origin}/chain/3`, options);
    expect(page.outcome).toBe('ok');
    expect(page.finalUrl).toBe(`${server.origin}/chain/0`);
    expect(page.redirects).toEqual([2, 1, 0].map((n) => `${server.origin}/chain/${n}`));
    expect(page.html).toContain('arrived');
  });

  it('gives up on a chain longer than maxRedirects without requesting the extra hop', async () => {
    const before = server.hits('/chain/3');
    const page = await fetchPage(`${server.origin}/chain/9`, { ...options, maxRedirects: 5 });
    expect(page.outcome).toBe('too-many-redirects');
    expect(page.status).toBe(301);
    expect(page.redirects).toHaveLength(6);
    expect(page.finalUrl).toBe(`${server.origin}/chain/4`);
    expect(server.hits('/chain/3')).toBe(before);
    expect(page.error).toBe('more than 5 redirects');
  });

  it('detects a loop on the first repeat, not at the redirect limit', async () => {
    const before = server.hits('/loop/a');
    const page = await fetchPage(`${server.origin}/loop/a`, { ...options, maxRedirects: 20 });
    expect(page.outcome).toBe('redirect-loop');
    expect(page.redirects).toEqual([`${server.origin}/loop/b`, `${server.origin}/loop/a`]);
    expect(server.hits('/loop/a') - before).toBe(1);
    expect(page.retryable).toBe(false);
  });

  it('resolves a relative Location against the current URL', async () => {
    const page = await fetchPage(`${server.origin}/redirect/relative`, options);
    expect(page.outcome).toBe('ok');
    expect(page.finalUrl).toBe(`${server.origin}/site/a?from=relative`);
  });

  it('asks refuseHop about every hop and stops where it gives a reason', async () => {
    const asked: string[] = [];
    const page = await fetchPage(`${server.origin}/chain/3`, {
      ...options,
      refuseHop: (url) => {
        asked.push(url);
        return url.endsWith('/chain/1') ? 'out of the crawl\'s scope' : undefined;
      },
    });
    expect(asked).toEqual([`${server.origin}/chain/2`, `${server.origin}/chain/1`]);
    expect(page).toMatchObject({ outcome: 'redirect-denied', finalUrl: `${server.origin}/chain/2`, status: 301 });
    expect(page.error).toBe(`redirect to ${server.origin}/chain/1 refused: out of the crawl's scope`);
  });

  it('refuses a redirect to a non-HTTP scheme, and a 3xx without Location', async () => {
    expect(await fetchPage(`${server.origin}/redirect/ftp`, options)).toMatchObject({ outcome: 'redirect-denied', redirects: ['ftp://127.0.0.1/file'] });
    expect(await fetchPage(`${server.origin}/redirect/no-location`, options)).toMatchObject({ outcome: 'http-error', status: 302 });
  });

  it('checks robots.txt for the first URL and for every hop when given a RobotsCache', async () => {
    const robots = new RobotsCache({ userAgent: options.userAgent, fetch: options });
    const before = server.hits('/private/secret');
    expect(await fetchPage(`${server.origin}/private/secret`, { ...options, robots })).toMatchObject({ outcome: 'robots-denied', status: 0 });
    const hop = await fetchPage(`${server.origin}/redirect/to-private`, { ...options, robots });
    expect(hop).toMatchObject({ outcome: 'robots-denied', status: 302, redirects: [`${server.origin}/private/secret`] });
    expect(server.hits('/private/secret')).toBe(before);
  });
});

describe('fetchPage: content types', () => {
  it.each([
    ['/pdf', 'not-html', 'application/pdf'],
    ['/binary/octet', 'not-html', 'application/octet-stream'],
    ['/binary/as-html', 'binary', 'text/html'],
    ['/binary/nul-html', 'binary', 'text/html'],
    ['/binary/untyped', 'binary', 'application/octet-stream'],
    ['/untyped/text', 'not-html', 'text/plain'],
  ])('%s → %s', async (path, outcome, contentType) => {
    const page = await fetchPage(`${server.origin}${path}`, options);
    expect(page).toMatchObject({ outcome, contentType, status: 200 });
    expect(page.html).toBeUndefined();
    expect(page.error).toMatch(/\S/);
    expect(page.error).not.toContain('\n');
  });

  it('reads none of a body skipped by its declared type', async () => {
    expect(await fetchPage(`${server.origin}/pdf`, options)).toMatchObject({ bytes: 0 });
  });

  it('names the magic number of a binary body labelled text/html', async () => {
    expect((await fetchPage(`${server.origin}/binary/as-html`, options)).error).toContain('PNG');
  });

  it('sniffs an untyped HTML body as HTML', async () => {
    const page = await fetchPage(`${server.origin}/untyped/html`, options);
    expect(page).toMatchObject({ outcome: 'ok', contentType: 'text/html', sniffed: true });
    expect(page.html).toContain('No Content-Type here.');
  });
});

describe('fetchPage: content codings', () => {
  it.each(['/gzip/page', '/deflate/page', '/deflate-raw/page', '/br/page'])('decodes %s', async (path) => {
    const page = await fetchPage(`${server.origin}${path}`, options);
    expect(page.outcome).toBe('ok');
    expect(page.html).toContain(CHINESE_TEXT);
    expect(page.bytes).toBe(Buffer.byteLength(page.html!));
    expect(page.wireBytes).toBeGreaterThan(0);
  });
});
