/**
 * End to end in Firefox: the built extension (dist/firefox) in Debian's Firefox ESR, driven over
 * WebDriver BiDi (support/bidi-client.ts; Playwright cannot drive a stock Firefox), against the
 * same loopback site as the Chromium test.
 *
 *   1. dist/firefox installs as a temporary add-on, with no manifest warning or error from
 *      Firefox; its moz-extension:// UUID is fixed by the profile (support/firefox.ts), so the
 *      options page's URL is known in advance;
 *   2. the options page creates a topic: on-topic pattern /finance/, off-topic /sport/;
 *   3. browsing four hub pages labels their links by pattern: examples accumulate, no button;
 *   4. on the test page the finance-worded links are marked (`data-linkscent-level`) and the
 *      sport-worded ones are not; the badge counts them; the Worker runs in the event page;
 *   5. a link added to the page later is scored and marked too;
 *   6. after Firefox suspends the idle event page (and the Worker with it: the add-on's
 *      background state goes to 'stopped'), a reloaded page is highlighted the same by a fresh
 *      event page;
 *   7. export → clear → import through the options page restores the same examples, model rows
 *      and highlights; a corrupt file changes nothing.
 *
 * Firefox's own view of the add-on (its manifest warnings, its background state) is read in the
 * browser window's privileged realm, which `--remote-allow-system-access` opens to BiDi.
 *
 * When a test fails, the console is printed: BiDi's log events (tabs) and Firefox's stdout,
 * where the profile copies the Browser Console (the event page and the extension's pages too).
 *
 * The test skips, saying why, only when Firefox ESR is not installed (scripts/test-all.mjs
 * installs it when run as root).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { distDir, ensureBuilt } from '../support/ensure-built.ts';
import { BidiClient } from './support/bidi-client.ts';
import { launchFirefox, type Firefox } from './support/firefox.ts';
import { modelTables } from './support/model-tables.ts';
import { startTopicSite, type TopicSite } from './support/topic-pages.ts';

const FIREFOX = process.env.LINKSCENT_FIREFOX ?? '/usr/bin/firefox-esr';
const LEVEL = 'data-linkscent-level';
/** The moz-extension:// host the profile gives the add-on (any fixed UUID will do). */
const EXTENSION_UUID = '3f6c1b52-8e0d-4c1a-9b7e-5d2f0a4c6e81';
/**
 * Firefox suspends an idle event page after this long: 30 s by default, shorter here so step 6
 * waits less, yet long enough that a slow machine's first Worker start (jieba's wasm) is never
 * cut short by a suspension (a pending listener only postpones one).
 */
const IDLE_TIMEOUT_MS = 15_000;

const skipReason = existsSync(FIREFOX) ? null : `${FIREFOX} is missing: install Debian's Firefox ESR (apt-get install firefox-esr)`;
if (skipReason) console.warn(`Firefox e2e skipped: ${skipReason}`);

interface Stats {
  topic: { id: string; name: string } | null;
  counts: { byLabel: { on: number; off: number }; bySource: Record<string, number> };
  pageOnTopicLinks: number | null;
}

/** The slice of `browser.*` the test calls from the extension's own pages. */
interface BrowserApi {
  runtime: { id: string; sendMessage(m: object): Promise<unknown>; getBackgroundPage(): Promise<Window & Record<string, unknown>> };
  tabs: { query(q: object): Promise<{ id?: number }[]> };
  action: { getBadgeText(d: { tabId: number }): Promise<string> };
}

describe.skipIf(skipReason !== null)('extension end to end (Firefox)', () => {
  let site: TopicSite;
  let firefox: Firefox | undefined;
  let bidi: BidiClient | undefined;
  let extensionId: string;
  let optionsUrl: string;
  /** Browsing contexts (BiDi's tab ids). */
  let options: string;
  /** The browser window (chrome://browser/content/browser.xhtml), a privileged realm. */
  let browserWindow: string;
  let levelsBefore: Record<string, string | null>;

  /** The console so far, for a failing test: BiDi's log entries, then Firefox's stdout. */
  function diagnostics(): string {
    const entries = (bidi?.log ?? []).map((entry) => `  [${entry.level}] ${entry.type} ${entry.url ?? ''} ${entry.text}`);
    const output = firefox?.output() ?? '';
    return `--- BiDi log.entryAdded (${entries.length}) ---\n${entries.join('\n')}\n--- Firefox stdout/stderr ---\n${output.slice(-20_000)}`;
  }

  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => console.error(`Firefox e2e failed; the browser's console:\n${diagnostics()}`));
  });

  beforeAll(async () => {
    ensureBuilt('firefox');
    const extension = distDir('firefox');
    const manifest = JSON.parse(readFileSync(join(extension, 'manifest.json'), 'utf8')) as {
      options_ui: { page: string };
      browser_specific_settings: { gecko: { id: string } };
    };
    const geckoId = manifest.browser_specific_settings.gecko.id;
    site = await startTopicSite();
    try {
      firefox = await launchFirefox({
        executable: FIREFOX,
        extensionUuids: { [geckoId]: EXTENSION_UUID },
        prefs: { 'extensions.background.idle.timeout': IDLE_TIMEOUT_MS },
      });
      bidi = await BidiClient.connect(firefox.bidiUrl);
      await bidi.startSession();
      extensionId = await bidi.installExtension(extension);
      expect(extensionId).toBe(geckoId);
      optionsUrl = `moz-extension://${EXTENSION_UUID}/${manifest.options_ui.page}`;
      const { contexts } = await bidi.send<{ contexts: { context: string; url: string }[] }>('browsingContext.getTree', {
        'moz:scope': 'chrome',
        maxDepth: 0,
      });
      browserWindow = contexts.find((context) => context.url === 'chrome://browser/content/browser.xhtml')!.context;
      options = await bidi.newTab();
      await bidi.navigate(options, optionsUrl);
    } catch (error) {
      console.error(`Firefox e2e setup failed; the browser's console:\n${diagnostics()}`);
      throw error;
    }
  }, 600_000);

  afterAll(async () => {
    await bidi?.close();
    await firefox?.close();
    await site?.close();
  });

  function client(): BidiClient {
    if (!bidi) throw new Error('no BiDi session');
    return bidi;
  }

  /** Sends a protocol message from the options page, as the popup and options do. */
  function send<T>(message: object): Promise<T> {
    return client().call(
      options,
      (m: object) => (globalThis as unknown as { browser: BrowserApi }).browser.runtime.sendMessage(m) as Promise<T>,
      message,
    );
  }

  /** What Firefox knows of the add-on: its manifest warnings and errors, its background's state. */
  function addonState(): Promise<{ warnings: string[]; errors: string[]; background: string }> {
    return client().call(
      browserWindow,
      (id: string) => {
        const { extension } = (
          globalThis as unknown as {
            WebExtensionPolicy: { getByID(id: string): { extension: { warnings: string[]; errors: string[]; backgroundState: string } } };
          }
        ).WebExtensionPolicy.getByID(id);
        return { warnings: extension.warnings, errors: extension.errors, background: extension.backgroundState };
      },
      extensionId,
    );
  }

  const stats = (tabId?: number) => send<Stats>({ type: 'stats/get', ...(tabId === undefined ? {} : { tabId }) });

  async function waitForCounts(atLeastOn: number, atLeastOff: number) {
    await expect
      .poll(async () => (await stats()).counts.byLabel, { timeout: 60_000, interval: 250 })
      .toSatisfy((byLabel: { on: number; off: number }) => byLabel.on >= atLeastOn && byLabel.off >= atLeastOff);
  }

  function levels(tab: string): Promise<Record<string, string | null>> {
    return client().call(
      tab,
      (attribute: string) =>
        Object.fromEntries(
          [...document.querySelectorAll('#on-list a, #off-list a, #later a')].map((a) => [a.getAttribute('href')!, a.getAttribute(attribute)]),
        ),
      LEVEL,
    );
  }

  function countMarked(tab: string, selector: string): Promise<number> {
    return client().call(tab, (s: string) => document.querySelectorAll(s).length, `${selector}[${LEVEL}]`);
  }

  function addLaterLink(tab: string): Promise<void> {
    return client().call(tab, () => {
      const a = document.createElement('a');
      a.href = '/articles/later.html';
      a.textContent = '股票 基金 行情';
      document.getElementById('later')!.append(a);
    });
  }

  function badgeText(tabId: number): Promise<string> {
    return client().call(
      options,
      (id: number) => (globalThis as unknown as { browser: BrowserApi }).browser.action.getBadgeText({ tabId: id }),
      tabId,
    );
  }

  /** Clicks the options page's Export button and returns the file it would have downloaded. */
  async function exportFile(): Promise<string> {
    await client().call(options, () => {
      const captured = globalThis as unknown as { linkscentExport?: Promise<string> };
      delete captured.linkscentExport;
      // The test takes the Blob the page downloads and skips the download itself (no dialog).
      const createObjectURL = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (blob: Blob | MediaSource) => {
        URL.createObjectURL = createObjectURL;
        captured.linkscentExport = (blob as Blob).text();
        return createObjectURL(blob);
      };
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        if (this.download === '') click.call(this);
        else HTMLAnchorElement.prototype.click = click;
      };
      document.getElementById('export')!.click();
    });
    await expect
      .poll(() => client().call(options, () => 'linkscentExport' in globalThis), { timeout: 30_000 })
      .toBe(true);
    return client().call(options, () => (globalThis as unknown as { linkscentExport: Promise<string> }).linkscentExport);
  }

  /** Chooses a file in the options page's import input, as a user's file dialog would. */
  function importFile(name: string, text: string): Promise<void> {
    return client().call(
      options,
      (fileName: string, fileText: string) => {
        const input = document.getElementById('import-file') as HTMLInputElement;
        const transfer = new DataTransfer();
        transfer.items.add(new File([fileText], fileName, { type: 'application/json' }));
        input.files = transfer.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      },
      name,
      text,
    );
  }

  it('installs without a manifest warning, its event page running', async () => {
    expect(await addonState()).toEqual({ warnings: [], errors: [], background: 'running' });
  });

  it('creates a topic from the options page', async () => {
    await client().call(
      options,
      (origin: string) => {
        document.getElementById('topic-new')!.click();
        const form = document.getElementById('topic-form') as HTMLFormElement;
        const fill = (name: string, value: string) => {
          const field = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement;
          field.value = value;
          field.dispatchEvent(new Event('input', { bubbles: true }));
        };
        fill('name', '财经 finance');
        fill('positive', `${origin}/finance/*`);
        fill('negative', `${origin}/sport/*`);
        form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
      },
      site.origin,
    );
    await expect.poll(async () => (await stats()).topic?.name, { timeout: 15_000 }).toBe('财经 finance');
  });

  it('labels links by pattern while browsing, so examples accumulate', async () => {
    const page = await client().newTab();
    let expectedOn = 0;
    for (const url of site.hubUrls) {
      await client().navigate(page, url);
      expectedOn += 6;
      await waitForCounts(expectedOn, expectedOn);
    }
    const counts = (await stats()).counts;
    expect(counts.byLabel).toEqual({ on: 24, off: 24 });
    expect(counts.bySource).toEqual({ pattern: 48 });
    await client().navigate(page, site.hubUrls[0]!);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await stats()).counts.byLabel).toEqual({ on: 24, off: 24 });
    await client().closeTab(page);
  });

  let testPage: string;
  let testTabId: number;

  it('marks the on-topic links of a new page and not the off-topic ones', async () => {
    testPage = await client().newTab();
    await client().navigate(testPage, site.testUrl);
    await expect.poll(() => countMarked(testPage, '#on-list a'), { timeout: 30_000 }).toBe(3);
    expect(await countMarked(testPage, '#off-list a')).toBe(0);
    for (const value of Object.values(await levels(testPage))) expect(value === null || ['1', '2', '3'].includes(value)).toBe(true);
    // Firefox: no offscreen document; the background is an event page that hosts the Worker.
    const background = await client().call(options, async () => {
      const { browser } = globalThis as unknown as { browser: BrowserApi & { offscreen?: unknown } };
      const page = await browser.runtime.getBackgroundPage();
      return { url: page.location.href, canStartWorkers: typeof page.Worker === 'function', offscreen: browser.offscreen !== undefined };
    });
    expect(background).toEqual({ url: `moz-extension://${EXTENSION_UUID}/_generated_background_page.html`, canStartWorkers: true, offscreen: false });
    // The popup's page count comes from the content script of the active tab.
    await client().activate(testPage);
    const tabId = await client().call(options, async () => {
      const { browser } = globalThis as unknown as { browser: BrowserApi };
      return (await browser.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id;
    });
    expect(tabId).toBeTypeOf('number');
    testTabId = tabId!;
    expect((await stats(testTabId)).pageOnTopicLinks).toBe(3);
    await expect.poll(() => badgeText(testTabId), { timeout: 15_000 }).toBe('3');
  });

  it('marks a link added to the page later', async () => {
    await addLaterLink(testPage);
    await expect.poll(() => countMarked(testPage, '#later a'), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => badgeText(testTabId), { timeout: 15_000 }).toBe('4');
    levelsBefore = await levels(testPage);
  });

  it('keeps working after Firefox suspends the idle event page (it holds no state it cannot lose)', async () => {
    const counts = (await stats()).counts;
    await client().call(options, async () => {
      const page = await (globalThis as unknown as { browser: BrowserApi }).browser.runtime.getBackgroundPage();
      page.linkscentMarker = 1;
    });
    // Nothing talks to the background meanwhile, so Firefox suspends it and its Worker.
    await expect.poll(async () => (await addonState()).background, { timeout: IDLE_TIMEOUT_MS + 30_000, interval: 500 }).toBe('stopped');
    await client().reload(testPage);
    await expect.poll(() => countMarked(testPage, '#on-list a'), { timeout: 30_000 }).toBe(3);
    expect(await countMarked(testPage, '#off-list a')).toBe(0);
    expect((await stats()).counts).toEqual(counts);
    // A fresh event page answered: the old one's globals are gone.
    const marker = await client().call(options, async () => {
      const page = await (globalThis as unknown as { browser: BrowserApi }).browser.runtime.getBackgroundPage();
      return page.linkscentMarker ?? null;
    });
    expect(marker).toBeNull();
    await addLaterLink(testPage);
    await expect.poll(() => levels(testPage), { timeout: 30_000 }).toEqual(levelsBefore);
  }, 90_000);

  it('exports the database, and after a clear the import restores the same examples and scores', async () => {
    const before = (await stats()).counts;
    const exported = await exportFile();
    expect(JSON.parse(exported)).toMatchObject({ formatName: 'dexie', data: { databaseName: 'linkscent' } });

    // Clear: deleting the topic drops its examples and model; the page loses its highlights.
    const { topic } = await stats();
    await send({ type: 'topics/delete', topicId: topic!.id });
    expect((await stats()).topic).toBeNull();
    await expect.poll(() => countMarked(testPage, ''), { timeout: 15_000 }).toBe(0);

    // A corrupt file is refused with a message and changes nothing.
    const status = () => client().call(options, () => document.getElementById('data-status')?.textContent ?? null);
    const statusBefore = await status();
    await importFile('corrupt.json', exported.slice(0, exported.length / 2));
    await expect.poll(status, { timeout: 15_000 }).not.toBe(statusBefore);
    expect((await stats()).topic).toBeNull();

    await importFile('export.json', exported);
    await expect.poll(async () => (await stats()).topic?.name, { timeout: 30_000 }).toBe('财经 finance');
    expect((await stats()).counts).toEqual(before);
    await client().reload(testPage);
    await expect.poll(() => countMarked(testPage, '#on-list a'), { timeout: 30_000 }).toBe(3);
    await addLaterLink(testPage);
    await expect.poll(() => levels(testPage), { timeout: 30_000 }).toEqual(levelsBefore);

    expect(modelTables(await exportFile())).toEqual(modelTables(exported));
  });
});
