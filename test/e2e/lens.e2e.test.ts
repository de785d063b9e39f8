/**
 * End to end, issue 12 ("a lens you can trust"): the built extension (dist/chromium) in Debian's
 * Chromium, the REAL companion service in this process, and a loopback site.
 *
 *   1. the companion's dashboard, opened with its token, gets no highlight and adds no example
 *      or seen page, and nothing stored or exported holds the token;
 *   2. a page the user marks on topic shows the mark at once on the links to it, in every tab,
 *      whatever the model said;
 *   3. with two topics, "Crawl from here" succeeds for each (the second topic's model file used
 *      to break on a trailing comma), within the pages, depth and scope chosen, and the popup
 *      says why the crawl ended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../companion/service/server.ts';
import { chromiumSkipReason, launchChromiumWithExtension, type ExtensionBrowser } from './support/chromium.ts';
import { startTopicSite, type TopicSite } from './support/topic-pages.ts';

const LEVEL = 'data-linkscent-level';
const skipReason = chromiumSkipReason;
if (skipReason) console.warn(`lens e2e skipped: ${skipReason}`);

interface Stats {
  topic: { id: string; name: string } | null;
  counts: { byLabel: { on: number; off: number }; pagesSeen: number };
}

describe.skipIf(skipReason !== null)('a lens you can trust (extension + companion service, Chromium)', () => {
  let site: TopicSite;
  let service: RunningService;
  let home: string;
  let browser: ExtensionBrowser;
  let context: BrowserContext;
  let options: Page;
  const topicIds: string[] = [];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'linkscent-lens-service-'));
    service = await startService({ port: 0, home, log: () => undefined });
    site = await startTopicSite();
    browser = await launchChromiumWithExtension('linkscent-e2e-lens-');
    ({ context, options } = browser);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  function send<T>(message: object): Promise<T> {
    return options.evaluate(
      (m) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: object): Promise<unknown> } } }).chrome.runtime.sendMessage(m),
      message,
    ) as Promise<T>;
  }
  const stats = () => send<Stats>({ type: 'stats/get' });

  async function topicFrom(name: string, positive: string, negative: string, hubs: string[]): Promise<string> {
    const saved = await send<{ ok: boolean; topic: { id: string }; error?: string }>({ type: 'topics/save', topic: { name, positive: [`${site.origin}${positive}`], negative: [`${site.origin}${negative}`] } });
    if (!saved.ok) throw new Error(saved.error);
    await send({ type: 'topics/activate', topicId: saved.topic.id });
    const page = await context.newPage();
    for (const url of hubs) {
      const before = (await stats()).counts.byLabel;
      await page.goto(url);
      await expect.poll(async () => (await stats()).counts.byLabel.on, { timeout: 60_000, interval: 250 }).toBe(before.on + 6);
    }
    await page.close();
    return saved.topic.id;
  }

  it('pairs and learns a first topic from two hubs', async () => {
    expect(await send<{ ok: boolean }>({ type: 'companion/pair', port: service.port, token: service.token })).toMatchObject({ ok: true });
    topicIds.push(await topicFrom('财经 finance', '/finance/*', '/sport/*', site.hubUrls.slice(0, 2)));
    expect((await stats()).counts.byLabel).toEqual({ on: 12, off: 12 });
  });

  it("leaves the companion's dashboard alone: no highlight, no example, no token stored or exported", async () => {
    const before = (await stats()).counts;
    const dashboard = await context.newPage();
    const url = `${service.url}/dashboard?token=${service.token}`;
    await dashboard.goto(url);
    await dashboard.reload();
    await dashboard.waitForTimeout(1500);
    expect(await dashboard.locator(`[${LEVEL}]`).count()).toBe(0);
    expect((await stats()).counts).toEqual(before);
    await dashboard.close();
    const exported = await send<{ ok: boolean; fileText: string }>({ type: 'db/export' });
    expect(exported.ok).toBe(true);
    expect(exported.fileText).not.toContain(service.token);
  });

  it("shows the user's mark on every link to a marked page, in every open tab", async () => {
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(site.testUrl);
    await second.goto(site.testUrl);
    const link = '#off-list a[href="/articles/off-0.html"]';
    // The model says off topic (sport words); nothing is lit.
    await expect.poll(() => first.locator('#on-list a[data-linkscent-level]').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await first.getAttribute(link, LEVEL)).toBeNull();
    const marked = await send<{ ok: boolean }>({ type: 'page/mark', pageUrl: `${site.origin}/articles/off-0.html`, label: 1 });
    expect(marked.ok).toBe(true);
    for (const page of [first, second]) await expect.poll(() => page.getAttribute(link, LEVEL), { timeout: 30_000 }).toBe('3');
    await first.close();
    await second.close();
  });

  it('crawls from here for each of two topics, within the chosen limits, and says why each crawl ended', async () => {
    topicIds.push(await topicFrom('体育 sport', '/sport/*', '/finance/*', site.hubUrls.slice(2, 3)));
    for (const topicId of topicIds) {
      expect(await send<{ ok: boolean }>({ type: 'topics/activate', topicId })).toMatchObject({ ok: true });
      const choice = { maxPages: 5, maxDepth: 1, scope: 'seed-hosts' };
      const started = await send<{ ok: boolean; error?: string; crawl: { info: { id: string } } }>({ type: 'crawl/start', pageUrl: site.portalUrl, choice });
      expect(started.error).toBeUndefined();
      expect(started.ok).toBe(true);
      await expect
        .poll(async () => (await send<{ crawl: { info: { state: string } } | null }>({ type: 'crawl/get' })).crawl?.info.state, { timeout: 120_000, interval: 500 })
        .toBe('done');
      const { crawl } = await send<{ crawl: { info: { progress: { fetched: number } }; choice: object } }>({ type: 'crawl/get' });
      expect(crawl.choice).toEqual(choice);
      expect(crawl.info.progress.fetched).toBeLessThanOrEqual(5);
      expect((await send<{ crawlChoice: object }>({ type: 'companion/get' })).crawlChoice).toEqual(choice);
    }
  });
});
