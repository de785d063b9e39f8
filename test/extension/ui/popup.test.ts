// @vitest-environment happy-dom
/** The popup, driven through its own HTML with a fake `browser` (the only fake). */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Topic } from '../../../shared/model/types.ts';
import type { UiToBackgroundReplies } from '../../../extension/messages/ui-to-background.ts';
import { startPopup } from '../../../extension/popup/popup.ts';
import { fakeBrowser, type Handlers } from './fake-browser.ts';
import { loadPage, untranslated } from './load-page.ts';

const topic = (id: string, name: string): Topic => ({
  id,
  name,
  lexicon: [],
  positive: [],
  negative: [],
  threshold: 0.5,
  featureGroup: 2,
  form: 'bernoulli',
  window: 80,
});

const topics: UiToBackgroundReplies['topics/list'] = {
  topics: [topic('t1', '财经 finance'), topic('t2', 'Jobs <b>now</b>')],
  activeId: 't1',
};

const stats = (overrides: Partial<UiToBackgroundReplies['stats/get']> = {}): UiToBackgroundReplies['stats/get'] => ({
  topic: topics.topics[0]!,
  counts: { byLabel: { on: 24, off: 30 }, bySource: { pattern: 50, user: 4 }, pagesSeen: 7 },
  heldOut: { mode: 'f1', threshold: 0.62, figures: { precision: 0.84, recall: 0.71, f1: 0.77, balancedAccuracy: 0.85 }, n: 40, positives: 9, reached: true },
  pageOnTopicLinks: 5,
  siteEnabled: true,
  host: 'news.example.com',
  ...overrides,
});

const tab = { id: 12, url: 'https://news.example.com/a.html' };
const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

function counts(): Record<string, string> {
  const cells = [...$('#counts').children];
  const out: Record<string, string> = {};
  for (let i = 0; i < cells.length; i += 2) out[cells[i]!.textContent!] = cells[i + 1]!.textContent!;
  return out;
}

async function open(handlers: Handlers = {}, locale: 'en' | 'zh_CN' = 'en') {
  loadPage('extension/popup/index.html');
  const browser = fakeBrowser({ 'topics/list': topics, 'stats/get': stats(), ...handlers }, { tab, locale });
  await startPopup(document, browser);
  return browser;
}

beforeEach(() => {
  document.body.replaceChildren();
});

describe('popup', () => {
  it('shows the topic, counts, accuracy, this page and the site switch', async () => {
    const browser = await open();
    expect(untranslated()).toEqual([]);
    expect(browser.sent).toContainEqual({ type: 'stats/get', tabId: 12 });
    const select = $<HTMLSelectElement>('#topic');
    expect([...select.options].map((o) => o.textContent)).toEqual(['财经 finance', 'Jobs <b>now</b>']);
    expect(select.querySelector('b')).toBeNull();
    expect(select.value).toBe('t1');
    expect(counts()).toEqual({
      'On-topic examples': '24',
      'Off-topic examples': '30',
      'From URL patterns': '50',
      'Links you marked': '4',
      'From pages you marked': '0',
      'From crawls': '0',
      'Pages seen': '7',
    });
    expect($('#accuracy').textContent).toBe('Threshold 0.62 (calibrated for the best F1): precision 84%, recall 71% on 40 held-out examples, 9 of them on topic');
    expect($('#page-count').textContent).toBe('On-topic links on this page: 5');
    expect($<HTMLInputElement>('#site-enabled').checked).toBe(true);
    expect($('#site-label').textContent).toBe('Highlight links on news.example.com');
    expect($<HTMLButtonElement>('#mark-on').disabled).toBe(false);
  });

  it('switches the active topic', async () => {
    const browser = await open({ 'topics/activate': { ok: true } });
    const select = $<HTMLSelectElement>('#topic');
    select.value = 't2';
    select.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(browser.sent).toContainEqual({ type: 'topics/activate', topicId: 't2' }));
    await vi.waitFor(() => expect(browser.sent.filter((m) => m['type'] === 'stats/get')).toHaveLength(2));
  });

  it('marks the page on and off topic and says how many links were labeled', async () => {
    const browser = await open({ 'page/mark': (m) => ({ ok: true, labeled: m['label'] === 1 ? 3 : 1 }) });
    $('#mark-on').click();
    await vi.waitFor(() => expect($('#status').textContent).toBe('Marked on topic: 3 links labeled.'));
    expect(browser.sent).toContainEqual({ type: 'page/mark', tabId: 12, pageUrl: tab.url, label: 1 });
    $('#mark-off').click();
    await vi.waitFor(() => expect($('#status').textContent).toBe('Marked off topic: 1 links labeled.'));
    expect($('#status').classList.contains('ok')).toBe(true);
  });

  it('shows the background’s one-line failure', async () => {
    await open({ 'page/mark': { ok: false, error: 'No topic is active.' } });
    $('#mark-on').click();
    await vi.waitFor(() => expect($('#status').textContent).toBe('No topic is active.'));
    expect($('#status').classList.contains('error')).toBe(true);
  });

  it('turns the site off', async () => {
    const browser = await open({ 'site/toggle': { ok: true, settings: { activeTopicId: 't1', excludedSites: ['news.example.com'], maxLinksPerPage: 2000 } } });
    const toggle = $<HTMLInputElement>('#site-enabled');
    toggle.checked = false;
    toggle.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(browser.sent).toContainEqual({ type: 'site/toggle', host: 'news.example.com', enabled: false }));
  });

  it('explains what it cannot show: no topic, no estimate, no web page', async () => {
    await open({
      'topics/list': { topics: [], activeId: null },
      'stats/get': stats({ topic: null, heldOut: null, pageOnTopicLinks: null, siteEnabled: null, host: null }),
    });
    expect($('#topic').hidden).toBe(true);
    expect($('#no-topic').hidden).toBe(false);
    expect($('#accuracy').textContent).toBe('Too few held-out examples of both kinds to measure precision and recall yet.');
    expect($('#page-count').textContent).toBe('LinkScent does not run on this page.');
    expect($('#site-row').hidden).toBe(true);
    expect($<HTMLButtonElement>('#mark-on').disabled).toBe(true);
  });

  it('asks for more teaching while the topic has few on-topic examples, and only then', async () => {
    await open({ 'stats/get': stats({ counts: { byLabel: { on: 8, off: 900 }, bySource: { pattern: 908 }, pagesSeen: 12 } }) });
    expect($('#teach-more').hidden).toBe(false);
    expect($('#teach-more').textContent).toBe("Only 8 on-topic examples so far: browse more of the topic's pages, or mark on-topic links, before trusting the highlights.");
    await open({ 'stats/get': stats({ counts: { byLabel: { on: 30, off: 900 }, bySource: { pattern: 930 }, pagesSeen: 12 } }) });
    expect($('#teach-more').hidden).toBe(true);
    await open({ 'topics/list': { topics: [], activeId: null }, 'stats/get': stats({ topic: null }) });
    expect($('#teach-more').hidden).toBe(true);
  });

  it('says so when the background does not answer', async () => {
    await open({ 'stats/get': undefined });
    expect($('#status').textContent).toMatch(/No reply from the background to 'stats\/get'/);
  });

  it('speaks Chinese with the zh_CN locale', async () => {
    await open({}, 'zh_CN');
    expect(untranslated()).toEqual([]);
    expect($('#mark-on').textContent).toBe('本页与主题相关');
    expect($('#page-count').textContent).toBe('本页相关链接：5');
    expect($('#accuracy').textContent).toContain('40');
  });

  it('opens the options page', async () => {
    const browser = await open();
    $('#open-options').click();
    await vi.waitFor(() => expect(browser.optionsOpened).toBe(1));
  });
});
