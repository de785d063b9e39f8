/**
 * End to end: the built extension (dist/chromium) in Debian's Chromium, against a loopback site.
 *
 *   1. the options page creates a topic whose on-topic pattern is the site's /finance/ and whose
 *      off-topic pattern is its /sport/;
 *   2. browsing four hub pages labels their links by pattern, so examples accumulate and the
 *      model learns, with no button pressed;
 *   3. on a test page whose links match no pattern, the finance-worded links are marked
 *      (`data-linkscent-level`) and the sport-worded ones are not; the badge counts them;
 *   4. a link added to the page later is scored and marked too, and the first links of a page
 *      whose end the server holds back are marked while it is still loading;
 *   5. after Chromium stops the service worker, a reloaded page is highlighted the same (the
 *      worker keeps no state it cannot lose);
 *   6. export → clear (delete the topic: examples and model gone) → import restores the same
 *      examples, the same model rows and the same highlights; a corrupt file changes nothing;
 *   7. a model file `linkscent train` wrote (the shared codec) imports and exports back byte for
 *      byte, and `linkscent crawl --model` crawls with the file the extension exported.
 *
 * The extension is built first when dist/chromium is missing or older than its sources. The test
 * skips, saying why, only when Chromium is not installed (scripts/test-all.mjs installs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromiumWithExtension, type ExtensionBrowser } from './support/chromium.ts';
import { modelTables } from './support/model-tables.ts';
import { runCli } from '../companion/support/run-cli.ts';
import { decodeModelFile } from '../../shared/model/model-file.ts';
import { startTopicSite, type TopicSite } from './support/topic-pages.ts';

const LEVEL = 'data-linkscent-level';

const skipReason = chromiumSkipReason;
if (skipReason) console.warn(`extension e2e skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('extension end to end (Chromium)', () => {
  let site: TopicSite;
  let browser: ExtensionBrowser;
  let context: BrowserContext;
  let profile: string;
  let serviceWorker: Worker;
  let extensionId: string;
  let options: Page;
  let exported: string;
  let levelsBefore: Record<string, string | null>;

  beforeAll(async () => {
    site = await startTopicSite();
    browser = await launchChromiumWithExtension('linkscent-e2e-');
    ({ context, serviceWorker, extensionId, options, profile } = browser);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  /** Sends a protocol message from the options page, as the popup and options do. */
  function send<T>(message: object): Promise<T> {
    return options.evaluate(
      (m) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: object): Promise<unknown> } } }).chrome.runtime.sendMessage(m),
      message,
    ) as Promise<T>;
  }

  interface Stats {
    topic: { id: string; name: string } | null;
    counts: { byLabel: { on: number; off: number }; bySource: Record<string, number> };
    pageOnTopicLinks: number | null;
  }

  /** The background's statistics, as the popup asks for them. */
  const stats = (tabId?: number) => send<Stats>({ type: 'stats/get', ...(tabId === undefined ? {} : { tabId }) });

  async function waitForCounts(atLeastOn: number, atLeastOff: number) {
    await expect
      .poll(async () => (await stats()).counts.byLabel, { timeout: 60_000, interval: 250 })
      .toSatisfy((byLabel: { on: number; off: number }) => byLabel.on >= atLeastOn && byLabel.off >= atLeastOff);
    return (await stats()).counts;
  }

  async function levels(page: Page): Promise<Record<string, string | null>> {
    return page.$$eval('#on-list a, #off-list a, #later a', (links, attribute) =>
      Object.fromEntries(links.map((a) => [a.getAttribute('href')!, a.getAttribute(attribute)])),
    LEVEL);
  }

  it('creates a topic from the options page', async () => {
    await options.click('#topic-new');
    await options.fill('#topic-form [name=name]', '财经 finance');
    await options.fill('#topic-form [name=positive]', `${site.origin}/finance/*`);
    await options.fill('#topic-form [name=negative]', `${site.origin}/sport/*`);
    await options.click('#topic-form button[type=submit]');
    await expect.poll(async () => (await stats()).topic?.name, { timeout: 15_000 }).toBe('财经 finance');
  });

  it('labels links by pattern while browsing, so examples accumulate', async () => {
    const page = await context.newPage();
    let expectedOn = 0;
    for (const url of site.hubUrls) {
      await page.goto(url);
      expectedOn += 6;
      await waitForCounts(expectedOn, expectedOn);
    }
    const counts = (await stats()).counts;
    // Six finance and six sport links per hub, each stored once.
    expect(counts.byLabel).toEqual({ on: 24, off: 24 });
    expect(counts.bySource).toEqual({ pattern: 48 });
    // Visiting a hub again adds nothing: no duplicates.
    await page.goto(site.hubUrls[0]!);
    await page.waitForTimeout(1500);
    expect((await stats()).counts.byLabel).toEqual({ on: 24, off: 24 });
    await page.close();
  });

  let testPage: Page;
  let testTabId: number;

  /** The toolbar badge of a tab, read in the service worker. */
  function badgeText(tabId: number): Promise<string> {
    return serviceWorker.evaluate(
      (id) =>
        (globalThis as unknown as { chrome: { action: { getBadgeText(d: { tabId: number }): Promise<string> } } }).chrome.action.getBadgeText({
          tabId: id,
        }),
      tabId,
    );
  }

  /** Exports through the options page's button; returns the file's text. */
  async function exportFile(name: string): Promise<string> {
    const download = options.waitForEvent('download');
    await options.click('#export');
    const file = join(profile, name);
    await (await download).saveAs(file);
    return readFileSync(file, 'utf8');
  }

  it('marks the on-topic links of a new page and not the off-topic ones', async () => {
    testPage = await context.newPage();
    await testPage.goto(site.testUrl);
    await expect.poll(() => testPage.locator(`#on-list a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(3);
    expect(await testPage.locator(`#off-list a[${LEVEL}]`).count()).toBe(0);
    // Chromium: the scoring Worker lives in the offscreen document the service worker made.
    const offscreen = await serviceWorker.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { runtime: { getContexts(f: object): Promise<{ documentUrl?: string }[]> } };
      };
      return (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).map((c) => c.documentUrl);
    });
    expect(offscreen).toEqual([`chrome-extension://${extensionId}/extension/offscreen/offscreen.html`]);
    for (const value of Object.values(await levels(testPage))) expect(value === null || ['1', '2', '3'].includes(value)).toBe(true);
    // The popup's page count comes from the content script of the active tab.
    await testPage.bringToFront();
    const tabId = await options.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } };
      return (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id;
    });
    expect((await stats(tabId)).pageOnTopicLinks).toBe(3);
    testTabId = tabId!;
    await expect.poll(() => badgeText(testTabId), { timeout: 15_000 }).toBe('3');
  });

  it('starts a new page from the settings published for content scripts, without asking the background', async () => {
    // What reaches the service worker from pages, recorded beside the extension's own listener.
    await serviceWorker.evaluate(() => {
      const scope = globalThis as unknown as { linkscentE2eLog?: { type: string; url: string }[]; chrome: { runtime: { onMessage: { addListener(f: (m: { type?: unknown }, s: { url?: string }) => undefined): void } } } };
      scope.linkscentE2eLog = [];
      scope.chrome.runtime.onMessage.addListener((message, sender) => {
        if (typeof message?.type === 'string' && message.type.startsWith('page/')) scope.linkscentE2eLog!.push({ type: message.type, url: sender.url ?? '' });
        return undefined;
      });
    });
    const page = await context.newPage();
    try {
      await page.goto(`${site.testUrl}?published=1`);
      await expect.poll(() => page.locator(`#on-list a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(3);
      const log = (await serviceWorker.evaluate(() => (globalThis as unknown as { linkscentE2eLog: { type: string; url: string }[] }).linkscentE2eLog)).filter((entry) =>
        entry.url.includes('?published=1'),
      );
      expect(log[0]?.type).toBe('page/links');
      expect(log.map((entry) => entry.type)).not.toContain('page/settings');
    } finally {
      await page.close();
    }
  });

  it('explains a lit link when the pointer rests on it (the explanation is fetched then)', async () => {
    await testPage.bringToFront();
    await testPage.hover('#on-list a >> nth=0');
    await expect.poll(() => testPage.locator('linkscent-tip[data-open]').count(), { timeout: 15_000 }).toBe(1);
    await testPage.mouse.move(0, 0);
  });

  it('marks the first links of a page while the page is still being loaded', async () => {
    const slow = await context.newPage();
    try {
      await slow.goto(site.slowTestUrl, { waitUntil: 'commit' });
      // The server holds the page's end back: the links it has sent are marked meanwhile.
      await expect.poll(() => slow.locator(`#on-list a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(3);
      expect(await slow.evaluate(() => document.readyState)).toBe('loading');
      expect(await slow.locator(`#off-list a[${LEVEL}]`).count()).toBe(0);
      site.releaseSlow();
      await slow.waitForLoadState('load');
      expect(await slow.locator(`#on-list a[${LEVEL}]`).count()).toBe(3);
      expect(await slow.locator(`#off-list a[${LEVEL}]`).count()).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('marks a link added to the page later', async () => {
    await testPage.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/articles/later.html';
      a.textContent = '股票 基金 行情';
      document.getElementById('later')!.append(a);
    });
    await expect.poll(() => testPage.locator(`#later a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => badgeText(testTabId), { timeout: 15_000 }).toBe('4');
    levelsBefore = await levels(testPage);
  });

  it('keeps working after Chromium stops the service worker (it holds no state it cannot lose)', async () => {
    const counts = (await stats()).counts;
    await serviceWorker.evaluate(() => {
      (globalThis as { linkscentMarker?: number }).linkscentMarker = 1;
    });
    const cdp = await context.newCDPSession(options);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
    await testPage.reload();
    await expect.poll(() => testPage.locator(`#on-list a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(3);
    expect(await testPage.locator(`#off-list a[${LEVEL}]`).count()).toBe(0);
    expect((await stats()).counts).toEqual(counts);
    // A fresh service worker answered: the old one's globals are gone.
    serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    expect(await serviceWorker.evaluate(() => (globalThis as { linkscentMarker?: number }).linkscentMarker)).toBeUndefined();
    await testPage.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/articles/later.html';
      a.textContent = '股票 基金 行情';
      document.getElementById('later')!.append(a);
    });
    await expect.poll(() => levels(testPage), { timeout: 30_000 }).toEqual(levelsBefore);
  });

  it('exports the database, and after a clear the import restores the same examples and scores', async () => {
    const before = (await stats()).counts;
    exported = await exportFile('export.json');
    const file = join(profile, 'export.json');
    expect(JSON.parse(exported)).toMatchObject({ formatName: 'dexie', data: { databaseName: 'linkscent' } });

    // Clear: deleting the topic drops its examples and model; the page loses its highlights.
    const { topic } = await stats();
    await send({ type: 'topics/delete', topicId: topic!.id });
    expect((await stats()).topic).toBeNull();
    await expect.poll(() => testPage.locator(`[${LEVEL}]`).count(), { timeout: 15_000 }).toBe(0);

    // A corrupt file is refused with a message and changes nothing.
    const corrupt = join(profile, 'corrupt.json');
    writeFileSync(corrupt, exported.slice(0, exported.length / 2));
    const statusBefore = await options.textContent('#data-status');
    await options.setInputFiles('#import-file', corrupt);
    await expect.poll(() => options.textContent('#data-status'), { timeout: 15_000 }).not.toBe(statusBefore);
    expect((await stats()).topic).toBeNull();

    await options.setInputFiles('#import-file', file);
    await expect.poll(async () => (await stats()).topic?.name, { timeout: 30_000 }).toBe('财经 finance');
    expect((await stats()).counts).toEqual(before);
    await testPage.reload();
    await expect.poll(() => testPage.locator(`#on-list a[${LEVEL}]`).count(), { timeout: 30_000 }).toBe(3);
    await testPage.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/articles/later.html';
      a.textContent = '股票 基金 行情';
      document.getElementById('later')!.append(a);
    });
    await expect.poll(() => levels(testPage), { timeout: 30_000 }).toEqual(levelsBefore);

    // The same rows: the same examples, and the same model counts, from which every score is
    // derived (only save times may differ).
    const reexported = await exportFile('reexport.json');
    expect(modelTables(reexported)).toEqual(modelTables(exported));
  });

  it('imports a model file `linkscent train` wrote and exports it back byte for byte; `linkscent crawl --model` loads its export', async () => {
    // The extension's examples as labeled JSON lines (what `linkscent collect` writes), trained by the bin.
    const examples = decodeModelFile(exported).examples.map(({ url, pageUrl, anchor, before, after, label, source }) =>
      JSON.stringify({ url, pageUrl, anchor, before, after, label, source, topic: 'trained in the companion' }),
    );
    const labeled = join(profile, 'labeled.jsonl');
    writeFileSync(labeled, `${examples.join('\n')}\n`);
    const trained = join(profile, 'trained.json');
    const train = await runCli(['train', labeled, '--out', trained]);
    expect(train.code, train.stderr).toBe(0);
    const trainedText = readFileSync(trained, 'utf8');

    // Import merges (issue 12): the trained file is one more topic, and the topic here stays.
    const topicsBefore = (await send<{ topics: { id: string }[] }>({ type: 'topics/list' })).topics.map((topic) => topic.id);
    const statusBefore = await options.textContent('#data-status');
    await options.setInputFiles('#import-file', trained);
    await expect.poll(() => options.textContent('#data-status'), { timeout: 30_000 }).not.toBe(statusBefore);
    expect(await options.textContent('#data-status')).toBe(`Imported: 1 topics; ${examples.length} new examples, 0 already here.`);
    const topicsAfter = (await send<{ topics: { id: string; name: string }[] }>({ type: 'topics/list' })).topics;
    expect(topicsAfter.map((topic) => topic.id)).toEqual(expect.arrayContaining(topicsBefore));
    expect(topicsAfter.map((topic) => topic.name)).toContain('trained in the companion');
    // Replacing is its own control, confirmed first: then the database is the file, byte for byte.
    // The test page is closed first: a page-seen note it had in flight could land after the
    // replace (a known race, in the closing note of stop 9) and add a row the file does not have.
    await testPage.close();
    options.once('dialog', (dialog) => void dialog.accept());
    await options.setInputFiles('#replace-file', trained);
    await expect.poll(() => options.textContent('#data-status'), { timeout: 30_000 }).toMatch(/^Replaced: /);
    expect(await exportFile('retrained.json')).toBe(trainedText);

    // The other way: the file the extension exported (step 6) drives a companion crawl.
    const out = join(profile, 'crawl');
    const crawl = await runCli(['crawl', site.hubUrls[0]!, '--model', join(profile, 'export.json'), '--max-pages', '4', '--out', out, '--delay-ms', '0']);
    expect(crawl.code, crawl.stderr).toBe(0);
    const pages = readFileSync(join(out, 'pages.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { url: string; score: number | null });
    expect(pages).toHaveLength(4);
    // The hub links finance and sport pages alike; the extension's model sends the crawl to finance first.
    expect(pages.slice(1).map((page) => new URL(page.url).pathname.split('/')[1])).toEqual(['finance', 'finance', 'finance']);
  });
});
