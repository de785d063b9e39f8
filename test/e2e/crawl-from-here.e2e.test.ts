/**
 * End to end, "Crawl from here": the built extension (dist/chromium) in Debian's Chromium and the
 * REAL companion service (`startService` from companion/service/server.ts) in this process, on a
 * temporary home directory and a free port, against a loopback site.
 *
 *   1. the options page's Companion section says "not running" for a port nothing listens on,
 *      "token refused" for a wrong token, and "connected" (version, crawls) for the right one;
 *   2. a topic whose on-topic pattern is the site's /finance/ and off-topic one its /sport/ learns
 *      from two hubs while browsing;
 *   3. on the portal page (links to four hubs), the popup's "Crawl from here" starts a crawl in
 *      the service with the topic's model; the popup shows its progress (pages > 0, then done)
 *      and a dashboard link; the service's API lists the crawled pages;
 *   4. a reopened popup shows the same crawl (the background remembers it);
 *   5. "Pull labels" merges the crawl's labels (source 'crawl') into the topic: as many as the
 *      service's labels file holds minus the ones already stored; a second pull adds nothing.
 *
 * The popup is the real one, opened by `chrome.action.openPopup()` on the portal's tab. Playwright
 * does not attach to action popups, so it is driven through the options page, an extension page
 * of the same origin and process, with `chrome.extension.getViews({ type: 'popup' })`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../companion/service/server.ts';
import { chromiumSkipReason, launchChromiumWithExtension, type ExtensionBrowser } from './support/chromium.ts';
import { startTopicSite, type TopicSite } from './support/topic-pages.ts';

const skipReason = chromiumSkipReason;
if (skipReason) console.warn(`crawl-from-here e2e skipped: ${skipReason}`);

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Stats {
  topic: { id: string; name: string } | null;
  counts: { byLabel: { on: number; off: number }; bySource: Record<string, number> };
}

describe.skipIf(skipReason !== null)('Crawl from here (extension + companion service, Chromium)', () => {
  let site: TopicSite;
  let service: RunningService;
  let home: string;
  let browser: ExtensionBrowser;
  let context: BrowserContext;
  let serviceWorker: Worker;
  let options: Page;
  let portal: Page;
  let crawlId: string;
  const serviceLog: string[] = [];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'linkscent-service-'));
    service = await startService({ port: 0, home, log: (line) => serviceLog.push(line) });
    site = await startTopicSite();
    browser = await launchChromiumWithExtension('linkscent-e2e-crawl-');
    ({ context, serviceWorker, options } = browser);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    if (serviceLog.length > 0) console.info(`service log:\n  ${serviceLog.join('\n  ')}`);
  });

  /** Sends a protocol message from the options page, as the popup and options do. */
  function send<T>(message: object): Promise<T> {
    return options.evaluate(
      (m) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: object): Promise<unknown> } } }).chrome.runtime.sendMessage(m),
      message,
    ) as Promise<T>;
  }

  const stats = () => send<Stats>({ type: 'stats/get' });

  /** The service's API, called as the command line would (no Origin). */
  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${service.token}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  }

  /** Evaluates `expression` in the open popup with `doc` bound to its document; undefined when closed. */
  function inPopup<T>(expression: string): Promise<T | undefined> {
    return options.evaluate(`(() => {
      const view = chrome.extension.getViews({ type: 'popup' })[0];
      if (view === undefined) return undefined;
      const doc = view.document;
      return ${expression};
    })()`) as Promise<T | undefined>;
  }

  async function openPopup(): Promise<void> {
    await portal.bringToFront();
    await serviceWorker.evaluate(() => (globalThis as unknown as { chrome: { action: { openPopup(): Promise<void> } } }).chrome.action.openPopup());
    await expect.poll(() => inPopup<boolean>(`doc.readyState === 'complete'`), { timeout: 15_000 }).toBe(true);
  }

  async function pair(port: number, token: string): Promise<string | undefined> {
    await options.bringToFront();
    await options.fill('#companion-form [name=port]', String(port));
    await options.fill('#companion-form [name=token]', token);
    await options.click('#companion-pair');
    await expect.poll(() => options.getAttribute('#companion-status', 'data-state'), { timeout: 15_000 }).not.toBe('checking');
    return (await options.getAttribute('#companion-status', 'data-state')) ?? undefined;
  }

  it('pairs through the options page: not running, token refused, then connected', async () => {
    await expect.poll(() => options.getAttribute('#companion-status', 'data-state'), { timeout: 15_000 }).toBe('unpaired');

    expect(await pair(await closedPort(), service.token)).toBe('not-running');
    expect(await options.textContent('#companion-status')).toMatch(/not running on port \d+\. Start it with: npm start \(or npx linkscent serve\)/);

    expect(await pair(service.port, 'x'.repeat(43))).toBe('token-refused');
    expect(await options.textContent('#companion-status')).toMatch(/refused the pairing token/);

    // Pasting the whole line `linkscent serve` printed works too.
    expect(await pair(service.port, `pairing token: ${service.token}`)).toBe('connected');
    expect(await options.textContent('#companion-status')).toMatch(new RegExp(`Connected: LinkScent companion \\S+ on port ${service.port}, 0 crawls\\.`));
    expect(await options.inputValue('#companion-form [name=token]')).toBe(service.token);
    // The token stays in the extension's settings: a reloaded page shows the same status.
    await options.reload();
    await expect.poll(() => options.getAttribute('#companion-status', 'data-state'), { timeout: 15_000 }).toBe('connected');
  });

  it('learns a topic from two hubs while browsing', async () => {
    await options.click('#topic-new');
    await options.fill('#topic-form [name=name]', '财经 finance');
    await options.fill('#topic-form [name=positive]', `${site.origin}/finance/*`);
    await options.fill('#topic-form [name=negative]', `${site.origin}/sport/*`);
    await options.click('#topic-form button[type=submit]');
    await expect.poll(async () => (await stats()).topic?.name, { timeout: 15_000 }).toBe('财经 finance');
    const page = await context.newPage();
    let expected = 0;
    for (const url of site.hubUrls.slice(0, 2)) {
      await page.goto(url);
      expected += 6; // six finance and six sport links per hub
      await expect.poll(async () => (await stats()).counts.byLabel, { timeout: 60_000, interval: 250 }).toEqual({ on: expected, off: expected });
    }
    await page.close();
  });

  it('starts a crawl from the popup and shows its progress until it is done', async () => {
    portal = await context.newPage();
    await portal.goto(site.portalUrl);
    await openPopup();
    await expect.poll(() => inPopup<boolean>(`doc.getElementById('crawl-start').disabled`), { timeout: 15_000 }).toBe(false);
    const started = Date.now();
    await inPopup(`doc.getElementById('crawl-start').click()`);

    await expect.poll(() => inPopup<string>(`doc.getElementById('crawl').dataset.crawlId`), { timeout: 30_000 }).toMatch(/^[A-Za-z0-9_-]+$/);
    crawlId = (await inPopup<string>(`doc.getElementById('crawl').dataset.crawlId`))!;
    const fetched = () => inPopup<string>(`doc.querySelector('#crawl-progress [data-field=fetched]')?.textContent ?? ''`);
    // Progress reaches the popup while the crawl runs (the service waits 500 ms between pages).
    await expect.poll(async () => Number.parseInt((await fetched()) ?? '0', 10), { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
    const runningSeen = await inPopup<string>(`doc.getElementById('crawl').dataset.state`);
    await expect.poll(() => inPopup<string>(`doc.getElementById('crawl').dataset.state`), { timeout: 120_000, interval: 500 }).toBe('done');
    const seconds = (Date.now() - started) / 1000;

    const info = await api<{ state: string; seeds: string[]; strategy: string; topic: { name: string } | null; progress: { fetched: number; harvest: number | null } }>(
      `/api/crawls/${crawlId}`,
    );
    expect(info).toMatchObject({ state: 'done', seeds: [site.portalUrl], strategy: 'nb', topic: { name: '财经 finance' } });
    // The popup shows the service's figures: pages, harvest.
    expect(await fetched()).toBe(`${info.progress.fetched} / 200`);
    expect(info.progress.harvest).not.toBeNull();
    expect(await inPopup<string>(`doc.querySelector('#crawl-progress [data-field=harvest]').textContent`)).toMatch(/^\d+%$/);

    // The dashboard link carries the token and the crawl.
    const href = await inPopup<string>(`doc.getElementById('crawl-dashboard').getAttribute('href')`);
    expect(href).toBe(`${service.url}/dashboard?token=${service.token}#crawl=${crawlId}`);
    // Clicked, it opens a tab the service lets in: token right, and a navigation carries no
    // extension Origin (the service refuses the dashboard to the extension's own requests).
    const opened = context.waitForEvent('page');
    const answered = context.waitForEvent('response', (r) => r.url().startsWith(`${service.url}/dashboard?`));
    await inPopup(`doc.getElementById('crawl-dashboard').click()`);
    const dashboard = await opened;
    const dashboardStatus = (await answered).status();
    expect([401, 403]).not.toContain(dashboardStatus);
    expect(dashboard.url()).toBe(href);
    await dashboard.close();

    // The crawled pages, through the service's API: the portal, the four hubs, their leaves.
    const pages = await api<{ total: number; pages: { url: string; depth: number; outcome: string }[] }>(`/api/crawls/${crawlId}/pages?offset=0&limit=1000`);
    expect(pages.total).toBe(info.progress.fetched);
    const urls = pages.pages.map((page) => page.url);
    expect(urls[0]).toBe(site.portalUrl);
    for (const hub of site.hubUrls) expect(urls).toContain(hub);
    expect(urls.some((url) => url.startsWith(`${site.origin}/finance/`))).toBe(true);
    expect(pages.pages.every((page) => page.depth <= 3)).toBe(true);
    console.info(
      `crawl-from-here: ${pages.total} pages in ${seconds.toFixed(1)} s from the click to "done" (state seen first: ${runningSeen}), ` +
        `harvest ${info.progress.harvest}, dashboard answered HTTP ${dashboardStatus}`,
    );
  });

  it('shows the same crawl in a reopened popup', async () => {
    await inPopup(`view.close()`);
    await expect.poll(() => inPopup<boolean>('true'), { timeout: 10_000 }).toBeUndefined();
    await openPopup();
    await expect.poll(() => inPopup<string>(`doc.getElementById('crawl').dataset.crawlId`), { timeout: 15_000 }).toBe(crawlId);
    expect(await inPopup<string>(`doc.getElementById('crawl').dataset.state`)).toBe('done');
  });

  it('pulls the labels the crawl learned into the topic, without duplicates', async () => {
    const before = (await stats()).counts;
    expect(before.bySource).toEqual({ pattern: 24 });
    const file = await api<{ data: { data: { tableName: string; rows: { source: string }[] }[] } }>(`/api/crawls/${crawlId}/labels`);
    const offered = file.data.data.find((table) => table.tableName === 'examples')!.rows;
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((row) => row.source === 'crawl')).toBe(true);

    await inPopup(`doc.getElementById('crawl-pull').click()`);
    await expect.poll(() => inPopup<string>(`doc.getElementById('crawl-status').textContent`), { timeout: 30_000 }).toMatch(/^Labels pulled: \d+ new examples, \d+ already known\.$/);
    const [, added, known] = /(\d+) new examples, (\d+) already known/.exec((await inPopup<string>(`doc.getElementById('crawl-status').textContent`))!)!.map(Number);
    expect(added! + known!).toBe(offered.length);
    // The crawl met hubs 0 and 1 too: their 24 link contexts, extracted by the companion from
    // HTML, are the very examples the extension extracted from the DOM while browsing (same
    // exampleKey), so they are recognised and not stored twice.
    expect(known).toBe(24);
    const after = (await stats()).counts;
    expect(after.bySource).toEqual({ pattern: 24, crawl: added });
    expect(after.byLabel.on + after.byLabel.off).toBe(before.byLabel.on + before.byLabel.off + added!);
    // The popup's own counts were refreshed after the pull.
    await expect.poll(() => inPopup<string>(`[...doc.querySelectorAll('#counts dt')].find((dt) => dt.textContent === 'From crawls')?.nextElementSibling?.textContent`)).toBe(String(added));

    // A second pull finds every example stored already.
    await inPopup(`doc.getElementById('crawl-status').textContent = ''`);
    await inPopup(`doc.getElementById('crawl-pull').click()`);
    await expect.poll(() => inPopup<string>(`doc.getElementById('crawl-status').textContent`), { timeout: 30_000 }).toBe(
      `Labels pulled: 0 new examples, ${offered.length} already known.`,
    );
    expect((await stats()).counts).toEqual(after);
    console.info(`crawl-from-here: labels file ${offered.length} examples; ${added} new, ${known} already stored from browsing`);
  });
});
