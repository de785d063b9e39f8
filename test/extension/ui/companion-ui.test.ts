// @vitest-environment happy-dom
/**
 * The companion parts of the pages, through their own HTML with a fake `browser`: the options
 * page's Companion section (pair, test, status line) and the popup's crawl panel ("Crawl from
 * here", progress, dashboard link, "Pull labels"), in English and Chinese.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UiToBackgroundReplies } from '../../../extension/messages/ui-to-background.ts';
import type { CompanionFailure, CrawlView } from '../../../extension/messages/views.ts';
import { startOptions } from '../../../extension/options/options.ts';
import { endedText } from '../../../extension/popup/crawl-panel.ts';
import { startPopup } from '../../../extension/popup/popup.ts';
import { createTranslate } from '../../../extension/ui/i18n.ts';
import type { Topic } from '../../../shared/model/types.ts';
import { crawlInfo } from '../companion-client/fake-service.ts';
import { fakeBrowser, fakeI18n, type Handlers } from './fake-browser.ts';
import { loadPage, untranslated } from './load-page.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

beforeEach(() => {
  document.body.replaceChildren();
});

const notRunning: CompanionFailure = {
  ok: false,
  problem: 'not-running',
  port: 7431,
  error: 'The LinkScent companion is not running on port 7431. Start it with: npm start (or npx linkscent serve)',
};

describe('options: Companion section', () => {
  async function open(handlers: Handlers, locale: 'en' | 'zh_CN' = 'en') {
    loadPage('extension/options/index.html');
    const permissions = { requested: [] as string[][], request: async (p: { origins: string[] }) => (permissions.requested.push(p.origins), true) };
    const browser = Object.assign(
      fakeBrowser({ 'topics/list': { topics: [], activeId: null }, 'settings/get': { activeTopicId: null, excludedSites: [], maxLinksPerPage: 2000 }, ...handlers }, { locale }),
      { permissions },
    );
    await startOptions(document, browser);
    return browser;
  }
  const state = () => $('#companion-status').dataset['state'];
  const text = () => $('#companion-status').textContent;

  it('says "not paired" until a token is stored', async () => {
    await open({ 'companion/get': { port: 7431, token: '' } });
    expect(untranslated()).toEqual([]);
    expect(state()).toBe('unpaired');
    expect(text()).toBe('Not paired: paste the pairing token and press “Pair and test”.');
    expect(($('#companion-form').querySelector('[name=port]') as HTMLInputElement).value).toBe('7431');
  });

  it('tests a stored pairing on load: connected, with version and crawls', async () => {
    await open({
      'companion/get': { port: 7431, token: TOKEN },
      'companion/status': { ok: true, status: { version: '0.1.0', port: 7431, crawls: 3 } },
    });
    expect(state()).toBe('connected');
    expect(text()).toBe('Connected: LinkScent companion 0.1.0 on port 7431, 3 crawls.');
  });

  it('says plainly that the companion is not running, and how to start it, in Chinese too', async () => {
    await open({ 'companion/get': { port: 7431, token: TOKEN }, 'companion/status': notRunning });
    expect(state()).toBe('not-running');
    expect(text()).toBe('The LinkScent companion is not running on port 7431. Start it with: npm start (or npx linkscent serve)');
    await open({ 'companion/get': { port: 7431, token: TOKEN }, 'companion/status': notRunning }, 'zh_CN');
    expect(text()).toBe('LinkScent 伴侣程序没有在端口 7431 上运行。请用以下命令启动：npm start（或 npx linkscent serve）');
  });

  it('pairs: asks for loopback access, sends port and the pasted token, shows the outcome', async () => {
    const browser = await open({
      'companion/get': { port: 7431, token: '' },
      'companion/pair': (m) =>
        m['token'] === TOKEN ? { ok: true, status: { version: '0.1.0', port: m['port'], crawls: 0 } } : { ok: false, problem: 'token-refused', port: 7431, error: 'refused' },
    });
    const form = $<HTMLFormElement>('#companion-form');
    (form.querySelector('[name=port]') as HTMLInputElement).value = '7500';
    (form.querySelector('[name=token]') as HTMLInputElement).value = `  pairing token: ${TOKEN} `;
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(state()).toBe('connected'));
    expect(browser.permissions.requested).toEqual([['http://127.0.0.1/*', 'http://localhost/*']]);
    expect(browser.sent.filter((m) => m['type'] === 'companion/pair')).toEqual([{ type: 'companion/pair', port: 7500, token: TOKEN }]);
    expect(text()).toBe('Connected: LinkScent companion 0.1.0 on port 7500, 0 crawls.');

    (form.querySelector('[name=token]') as HTMLInputElement).value = 'x'.repeat(43);
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(state()).toBe('token-refused'));
    expect(text()).toMatch(/^The companion refused the pairing token\./);
  });

  it('keeps what the user typed and asked when the stored pairing arrives late', async () => {
    loadPage('extension/options/index.html');
    let arrive: (value: unknown) => void = () => undefined;
    const browser = fakeBrowser({
      'topics/list': { topics: [], activeId: null },
      'settings/get': { activeTopicId: null, excludedSites: [], maxLinksPerPage: 2000 },
      'companion/get': () => new Promise((resolve) => (arrive = resolve)),
      'companion/pair': { ok: true, status: { version: '0.1.0', port: 7431, crawls: 0 } },
    });
    const started = startOptions(document, browser);
    await vi.waitFor(() => expect(browser.sent.map((m) => m['type'])).toContain('companion/get'));
    const form = $<HTMLFormElement>('#companion-form');
    (form.querySelector('[name=token]') as HTMLInputElement).value = TOKEN;
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(state()).toBe('connected'));
    arrive({ port: 7431, token: '' });
    await started;
    expect(state()).toBe('connected');
    expect((form.querySelector('[name=token]') as HTMLInputElement).value).toBe(TOKEN);
  });

  it('catches a malformed port or token before asking the background', async () => {
    const browser = await open({ 'companion/get': { port: 7431, token: '' } });
    const form = $<HTMLFormElement>('#companion-form');
    (form.querySelector('[name=token]') as HTMLInputElement).value = 'no spaces allowed here';
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(text()).toMatch(/^That is not a pairing token/));
    (form.querySelector('[name=port]') as HTMLInputElement).value = '0';
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(text()).toBe('The port is a whole number from 1 to 65535.'));
    expect(browser.sent.filter((m) => m['type'] === 'companion/pair')).toEqual([]);
  });
});

describe('popup: crawl panel', () => {
  const topic: Topic = { id: 't1', name: '财经', lexicon: [], positive: [], negative: [], threshold: 0.5, featureGroup: 2, form: 'bernoulli', window: 80 };
  const stats: UiToBackgroundReplies['stats/get'] = {
    topic,
    counts: { byLabel: { on: 6, off: 6 }, bySource: { pattern: 12 }, pagesSeen: 1 },
    heldOut: null,
    pageOnTopicLinks: 2,
    siteEnabled: true,
    host: 'news.example.com',
  };
  const tab = { id: 12, url: 'https://news.example.com/a.html' };
  const view = (overrides: Parameters<typeof crawlInfo>[0] = {}): CrawlView => ({
    info: crawlInfo(overrides),
    dashboardUrl: `http://127.0.0.1:7431/dashboard?token=${TOKEN}#crawl=c1`,
  });

  async function open(handlers: Handlers, locale: 'en' | 'zh_CN' = 'en') {
    loadPage('extension/popup/index.html');
    const browser = fakeBrowser({ 'topics/list': { topics: [topic], activeId: 't1' }, 'stats/get': stats, ...handlers }, { tab, locale });
    const panel = await startPopup(document, browser, { pollMs: 10 });
    return { browser, panel };
  }
  const field = (name: string) => $(`#crawl-progress [data-field=${name}]`).textContent;

  it('says how to pair when not paired, and what went wrong on a click', async () => {
    const { browser, panel } = await open({
      'crawl/get': { ok: true, crawl: null, paired: false },
      'crawl/start': { ok: false, problem: 'not-paired', port: 7431, error: 'not paired' },
      'companion/get': { port: 7431, token: '', crawlChoice: { maxPages: 50, maxDepth: 2, scope: 'seed-hosts' } },
    });
    // The last choice is offered again, and a change goes with the request.
    expect($<HTMLInputElement>('#crawl-pages').value).toBe('50');
    expect($<HTMLSelectElement>('#crawl-scope').value).toBe('seed-hosts');
    $<HTMLInputElement>('#crawl-depth').value = '4';
    expect(untranslated()).toEqual([]);
    expect($('#crawl-hint').hidden).toBe(false);
    expect($('#crawl-hint').textContent).toMatch(/^LinkScent is not paired with the companion yet\. Open Options → Companion/);
    expect($('#crawl').hidden).toBe(true);
    $<HTMLButtonElement>('#crawl-start').click();
    await vi.waitFor(() => expect($('#crawl-status').textContent).toMatch(/^LinkScent is not paired/));
    expect(browser.sent).toContainEqual({ type: 'crawl/start', pageUrl: tab.url, choice: { maxPages: 50, maxDepth: 4, scope: 'seed-hosts' } });
    panel.stop();
  });

  it('starts a crawl and follows its progress until it is done', async () => {
    const states = [view({ progress: { ...crawlInfo().progress, fetched: 7 } }), view({ state: 'done', progress: { ...crawlInfo().progress, fetched: 9, harvest: 0.5, pagesPerSecond: 2 } })];
    const { browser, panel } = await open({
      'crawl/get': () => (browser.sent.some((m) => m['type'] === 'crawl/start') ? { ok: true, crawl: states.shift() ?? states[0], paired: true } : { ok: true, crawl: null, paired: true }),
      'crawl/start': { ok: true, crawl: view() },
    });
    expect($('#crawl-hint').hidden).toBe(true);
    expect($<HTMLButtonElement>('#crawl-start').disabled).toBe(false);
    $<HTMLButtonElement>('#crawl-start').click();
    await vi.waitFor(() => expect($('#crawl').dataset['state']).toBe('done'));
    expect(field('fetched')).toBe('9 / 200');
    expect(field('harvest')).toBe('50%');
    expect(field('speed')).toBe('2.0');
    expect($('#crawl-state').textContent).toBe('Done');
    expect($('#crawl-dashboard').getAttribute('href')).toBe(`http://127.0.0.1:7431/dashboard?token=${TOKEN}#crawl=c1`);
    // Done: no more polling.
    const polls = browser.sent.filter((m) => m['type'] === 'crawl/get').length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(browser.sent.filter((m) => m['type'] === 'crawl/get')).toHaveLength(polls);
    panel.stop();
  });

  it('shows the last crawl when reopened, and a failed crawl’s reason as text', async () => {
    const { panel } = await open({ 'crawl/get': { ok: true, crawl: view({ state: 'failed', error: '<img src=x onerror=alert(1)> seed refused' }), paired: true } });
    expect($('#crawl').dataset['crawlId']).toBe('c1');
    expect($('#crawl-state').textContent).toBe('Failed: <img src=x onerror=alert(1)> seed refused');
    expect($('#crawl-state').children).toHaveLength(0);
    panel.stop();
  });

  it('keeps asking a companion that stopped answering, saying why it is quiet', async () => {
    let calls = 0;
    const { panel } = await open({ 'crawl/get': () => (++calls === 1 ? notRunning : { ok: true, crawl: view({ state: 'done' }), paired: true }) }, 'zh_CN');
    expect($('#crawl-status').textContent).toBe('LinkScent 伴侣程序没有在端口 7431 上运行。请用以下命令启动：npm start（或 npx linkscent serve）');
    await vi.waitFor(() => expect($('#crawl').dataset['state']).toBe('done'));
    expect($('#crawl-status').textContent).toBe('');
    panel.stop();
  });

  it('pulls labels and shows the new counts', async () => {
    const { browser, panel } = await open({
      'crawl/get': { ok: true, crawl: view({ state: 'done' }), paired: true },
      'crawl/pull-labels': { ok: true, offered: 30, added: 18, duplicates: 12 },
    });
    const statsBefore = browser.sent.filter((m) => m['type'] === 'stats/get').length;
    $<HTMLButtonElement>('#crawl-pull').click();
    await vi.waitFor(() => expect($('#crawl-status').textContent).toBe('Labels pulled: 18 new examples, 12 already known.'));
    await vi.waitFor(() => expect(browser.sent.filter((m) => m['type'] === 'stats/get')).toHaveLength(statsBefore + 1));
    panel.stop();
  });

  it('says in the user’s language why a crawl cannot start or labels cannot be pulled', async () => {
    const { panel } = await open(
      {
        'crawl/get': { ok: true, crawl: view({ state: 'done' }), paired: true },
        'crawl/start': { ok: false, problem: 'no-examples', port: 7431, error: 'no examples' },
        'crawl/pull-labels': { ok: false, problem: 'bad-labels', port: 7431, error: 'x', detail: 'corrupt model file: invalid JSON' },
      },
      'zh_CN',
    );
    $<HTMLButtonElement>('#crawl-start').click();
    await vi.waitFor(() => expect($('#crawl-status').textContent).toMatch(/^该主题还没有已标注的样本/));
    $<HTMLButtonElement>('#crawl-pull').click();
    await vi.waitFor(() => expect($('#crawl-status').textContent).toBe('无法合并伴侣程序的标注：corrupt model file: invalid JSON'));
    panel.stop();
  });

  it('cannot start a crawl without a topic or on a page that is not a web page', async () => {
    const { panel } = await open({ 'stats/get': { ...stats, host: null }, 'crawl/get': { ok: true, crawl: null, paired: true } });
    expect($<HTMLButtonElement>('#crawl-start').disabled).toBe(true);
    panel.stop();
  });
});

describe('popup: why a crawl ended', () => {
  const t = createTranslate(fakeI18n('en'));
  const done = (fetched: number, extra: Partial<ReturnType<typeof crawlInfo>> = {}) =>
    crawlInfo({ state: 'done', ...extra, progress: { ...crawlInfo().progress, fetched, maxPages: 200 } });
  const choice = { maxPages: 200, maxDepth: 2, scope: 'seed-hosts' as const };

  it('says the page limit, or that depth and scope left nothing to fetch', () => {
    expect(endedText(t, { info: done(200), dashboardUrl: '' })).toBe('It ended at its limit of 200 pages.');
    expect(endedText(t, { info: done(37), dashboardUrl: '', choice })).toBe('The depth limit (2) and the scope (this site) left nothing more to fetch.');
    expect(endedText(t, { info: done(37, { ended: { by: 'frontier-empty', beyondDepth: 12 } }), dashboardUrl: '', choice })).toBe('The depth limit (2) left nothing more to fetch.');
    expect(endedText(t, { info: done(37), dashboardUrl: '' })).toBe('Nothing was left to fetch.');
    expect(endedText(t, { info: crawlInfo({ state: 'running' }), dashboardUrl: '' })).toBeNull();
  });
});
