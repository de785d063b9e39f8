/**
 * The background's handlers with the real engine behind a direct "worker" (no comlink), the
 * Dexie stores on fake-indexeddb, and recording fakes for tabs and badge: what a page, the
 * popup and the options page get back, and what they cause.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanLink, createContentHandlers } from '../../../extension/background/content-handlers.ts';
import type { BackgroundServices } from '../../../extension/background/services.ts';
import { createUiHandlers } from '../../../extension/background/ui-handlers.ts';
import type { WorkerRemote } from '../../../extension/background/worker-host.ts';
import type { BackgroundToContent } from '../../../extension/messages/background-to-content.ts';
import { pageSettingsFrom } from '../../../extension/messages/page-settings.ts';
import { createDexieCompanionStore, createDexieSettingsStore, createDexieTopicStore } from '../../../extension/storage/dexie-stores.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { FINANCE_ANCHORS, memoryDb, SPORT_ANCHORS, tokenizer } from '../support/memory-db.ts';

let db: LinkScentDb;
let engine: Engine;
let sent: { tabId: number; message: BackgroundToContent }[];
let badges: Map<number, number | null>;
let services: BackgroundServices;
/** The "Worker" calls made, so each test's can finish before the next begins. */
const calls: Promise<unknown>[] = [];
function track<T>(call: Promise<T>): Promise<T> {
  calls.push(call);
  return call;
}

beforeEach(async () => {
  db = await memoryDb();
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
  sent = [];
  badges = new Map();
  services = {
    topics: createDexieTopicStore(db),
    settings: createDexieSettingsStore(db),
    companion: createDexieCompanionStore(db),
    worker: { call: (_what, fn) => track(fn(engine as unknown as WorkerRemote)) },
    tabs: {
      async send(tabId, message) {
        sent.push({ tabId, message });
        return (message.type === 'page/summary' ? { onTopic: 2, total: 9 } : { ok: true }) as never;
      },
      allTabIds: async () => [1, 2],
      urlOf: async (tabId) => (tabId === 1 ? 'https://www.portal.example.net/x' : null),
    },
    badge: {
      async set(tabId, count) {
        badges.set(tabId, count);
      },
    },
  };
});
afterEach(async () => {
  // 'page/links' answers before its examples are stored: let the Worker's calls finish before
  // the database closes under them.
  await Promise.allSettled(calls.splice(0));
  await engine.flush();
  db.close();
});

const PAGE = 'https://portal.example.net/';
const origin = { tabId: 1, url: `${PAGE}#top` };

function hubLinks() {
  return [
    ...FINANCE_ANCHORS.map((anchor, i) => ({ ref: i, url: `https://finance.example.org/${i}`, pageUrl: PAGE, anchor, before: '', after: '' })),
    ...SPORT_ANCHORS.map((anchor, i) => ({ ref: 10 + i, url: `https://sport.example.org/${i}`, pageUrl: PAGE, anchor, before: '', after: '' })),
  ];
}

async function createTopic(ui = createUiHandlers(services)) {
  const reply = await ui['topics/save']({ type: 'topics/save', topic: { name: '财经', positive: ['finance.example.org'], negative: ['sport.example.org'] } });
  if (!reply.ok) throw new Error(reply.error);
  return reply.topic;
}

describe('background handlers', () => {
  it("does nothing on the companion's pages and stores no URL that carries the pairing token", async () => {
    const token = 'Abcdefghijklmnop_0123456789-xyz';
    await services.companion.put({ port: 7431, token });
    await createTopic();
    const content = createContentHandlers(services);
    const dashboard = { tabId: 3, url: `http://127.0.0.1:7431/dashboard?token=${token}#crawl=c1` };
    expect(await content['page/settings']({ type: 'page/settings', pageUrl: dashboard.url }, dashboard)).toMatchObject({ enabled: false });
    const links = [{ ref: 0, url: 'https://finance.example.org/1', pageUrl: dashboard.url, anchor: '股票', before: '', after: '' }];
    expect(await content['page/links']({ type: 'page/links', pageUrl: dashboard.url, title: '', links, first: true }, dashboard)).toEqual({ verdicts: [] });
    // Elsewhere, a link into the dashboard (token and all) is neither scored nor stored.
    const tokenLink = { ref: 99, url: `http://127.0.0.1:7431/dashboard?token=${token}`, pageUrl: PAGE, anchor: '股票', before: '', after: '' };
    const reply = await content['page/links']({ type: 'page/links', pageUrl: PAGE, title: '', links: [...hubLinks(), tokenLink], first: true }, origin);
    expect(reply.verdicts.map((verdict) => verdict.ref)).not.toContain(99);
    await engine.flush();
    expect(JSON.stringify(await db.examples.toArray())).not.toContain(token);
    expect(JSON.stringify(await db.pages.toArray())).not.toContain(token);
    expect(await db.examples.count()).toBe(12);
  });

  it('tells a page to stay idle until there is a topic, and clears its badge', async () => {
    const content = createContentHandlers(services);
    expect(await content['page/settings']({ type: 'page/settings', pageUrl: PAGE }, origin)).toEqual({ enabled: false, window: 80, maxLinks: 2000 });
    expect(badges.get(1)).toBeNull();
    expect(await content['page/links']({ type: 'page/links', pageUrl: PAGE, title: '', links: hubLinks(), first: true }, origin)).toEqual({ verdicts: [] });
  });

  it('publishes for content scripts the settings that give the same answer as page/settings, before any tab refreshes', async () => {
    const published: unknown[] = [];
    const order: string[] = [];
    services.pageSettings = {
      async publish(value) {
        published.push(value);
        order.push('publish');
      },
    };
    const sendToTab = services.tabs.send;
    services.tabs.send = (tabId, message) => (order.push(message.type), sendToTab(tabId, message));
    const token = 'Abcdefghijklmnop_0123456789-xyz';
    await services.companion.put({ port: 7431, token });
    const ui = createUiHandlers(services);
    const content = createContentHandlers(services);
    const urls = [
      PAGE,
      'https://news.example.org/a?b=c#d',
      'https://www.excluded.example/x',
      'https://deep.sub.excluded.example/',
      'http://127.0.0.1:7431/dashboard?token=x',
      'http://127.0.0.1:7431/',
      'http://127.0.0.1:8080/page.html',
      'http://localhost:9000/?token=abc',
      'http://[::1]:7431/api',
    ];
    const check = async () => {
      const latest = published.at(-1);
      for (const url of urls) expect(pageSettingsFrom(latest, url), url).toEqual(await content['page/settings']({ type: 'page/settings', pageUrl: url }, { tabId: 1, url }));
    };

    await createTopic(ui);
    // Published before the tabs were asked to refresh, so a refreshing page reads the new settings.
    expect(order.slice(0, 2)).toEqual(['publish', 'verdicts/refresh']);
    expect(published.at(-1)).toMatchObject({ active: true, window: 80, maxLinks: 2000, companionPort: 7431 });
    await check();

    order.length = 0;
    expect(await ui['settings/save']({ type: 'settings/save', settings: { excludedSites: ['excluded.example'], maxLinksPerPage: 300 } })).toMatchObject({ ok: true });
    expect(order[0]).toBe('publish');
    expect(published.at(-1)).toMatchObject({ excludedSites: ['excluded.example'], maxLinks: 300 });
    await check();

    // The pairing moves to another port: its pages are left alone, the old port's are not.
    await ui['companion/pair']({ type: 'companion/pair', port: 8080, token: '' });
    expect(published.at(-1)).toMatchObject({ companionPort: 8080 });
    await check();

    const { activeId } = await ui['topics/list']({ type: 'topics/list' });
    await ui['topics/delete']({ type: 'topics/delete', topicId: activeId! });
    expect(published.at(-1)).toMatchObject({ active: false });
    await check();
    // The token itself is never published.
    expect(JSON.stringify(published)).not.toContain(token);
  });

  it('answers a batch without explanations, and explains a lit link on hover with the features it was scored with', async () => {
    const topic = await createTopic();
    const content = createContentHandlers(services);
    await content['page/links']({ type: 'page/links', pageUrl: PAGE, title: 'Portal', links: hubLinks(), first: true }, origin);
    await Promise.allSettled(calls.splice(0));
    // Another page's links, which no pattern labels: the model gives every verdict, and learns nothing from them.
    const other = { tabId: 2, url: 'https://news.example.com/today' };
    const links = hubLinks().map((link, i) => ({ ...link, url: `https://news.example.com/story/${i}`, pageUrl: other.url }));
    const computed = await engine.scoreLinks(topic, links);
    const reply = await content['page/links']({ type: 'page/links', pageUrl: other.url, links: links.map(({ pageUrl: _p, ...sent }) => sent), first: true }, other);
    expect(reply.verdicts).toEqual(computed.map(({ top: _top, ...verdict }) => verdict));
    expect(reply.verdicts.some((verdict) => 'top' in verdict)).toBe(false);
    const lit = computed.filter((verdict) => verdict.level > 0);
    expect(lit.length).toBeGreaterThan(0);
    expect(lit.every((verdict) => verdict.top.length > 0)).toBe(true);
    for (const verdict of lit) {
      const { pageUrl: _p, ...link } = links.find((l) => l.ref === verdict.ref)!;
      expect(await content['link/explain']({ type: 'link/explain', pageUrl: other.url, link }, other)).toEqual({ top: verdict.top });
    }
    // A link the page made up, or one that carries nothing usable, gets no explanation.
    expect(await content['link/explain']({ type: 'link/explain', pageUrl: other.url, link: { ref: 1, url: 'javascript:alert(1)', anchor: '', before: '', after: '' } }, other)).toEqual({ top: [] });
  });

  it('makes the first topic active and asks every tab to refresh', async () => {
    const topic = await createTopic();
    const ui = createUiHandlers(services);
    expect(await ui['topics/list']({ type: 'topics/list' })).toEqual({ topics: [topic], activeId: topic.id });
    expect(sent).toEqual([
      { tabId: 1, message: { type: 'verdicts/refresh' } },
      { tabId: 2, message: { type: 'verdicts/refresh' } },
    ]);
  });

  it('refuses a topic it cannot use, with the reason', async () => {
    const ui = createUiHandlers(services);
    expect(await ui['topics/save']({ type: 'topics/save', topic: { name: 'x', threshold: 2 } })).toMatchObject({ ok: false, error: expect.stringMatching(/threshold/) });
  });

  it('reads the settings once per batch (every batch of every page comes through)', async () => {
    await createTopic();
    const { settings } = services;
    let reads = 0;
    const counting = createContentHandlers({ ...services, settings: { ...settings, get: () => (reads++, settings.get()) } });
    await counting['page/links']({ type: 'page/links', pageUrl: PAGE, title: 'Portal', links: hubLinks(), first: true }, origin);
    expect(reads).toBe(1);
  });

  it('scores a batch, learns its pattern-labeled links, and counts the pages seen', async () => {
    await createTopic();
    const content = createContentHandlers(services);
    const first = await content['page/links']({ type: 'page/links', pageUrl: PAGE, title: 'Portal', links: hubLinks(), first: true }, origin);
    expect(first.verdicts.map((v) => v.ref)).toEqual(hubLinks().map((l) => l.ref));
    const stats = await createUiHandlers(services)['stats/get']({ type: 'stats/get', tabId: 1 });
    expect(stats.counts).toEqual({ byLabel: { on: 6, off: 6 }, bySource: { pattern: 12 }, pagesSeen: 1 });
    expect(stats).toMatchObject({ pageOnTopicLinks: 2, siteEnabled: true, host: 'www.portal.example.net' });
    // The page URL is the sender's (fragment dropped), not the message's.
    expect((await db.examples.toArray()).every((row) => row.pageUrl === PAGE)).toBe(true);
  });

  it('answers a batch with its verdicts without waiting for its examples to be stored', async () => {
    await createTopic();
    let release: () => void = () => undefined;
    const stored = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const slowLearning: BackgroundServices = {
      ...services,
      worker: {
        call: (what, fn) => {
          order.push(what);
          // The Worker's IndexedDB write of the page's examples, held back until released.
          return track(what === 'observe' ? stored.then(() => fn(engine as unknown as WorkerRemote)) : fn(engine as unknown as WorkerRemote));
        },
      },
    };
    const reply = await createContentHandlers(slowLearning)['page/links']({ type: 'page/links', pageUrl: PAGE, title: 'Portal', links: hubLinks(), first: true }, origin);
    expect(reply.verdicts.map((v) => v.ref)).toEqual(hubLinks().map((l) => l.ref));
    // Scoring was asked for before learning, so the batch is scored against the model as it was.
    expect(order).toEqual(['scoreLinks', 'observe']);
    expect(await db.examples.count()).toBe(0);
    release();
    await vi.waitFor(async () => expect(await db.examples.count()).toBe(12), { timeout: 2000, interval: 10 });
  });

  it('drops malformed links from a page instead of trusting them', () => {
    expect(cleanLink({ ref: 1, url: 'javascript:alert(1)', anchor: 'x' }, PAGE)).toBeNull();
    expect(cleanLink({ ref: -1, url: 'https://a.example/' }, PAGE)).toBeNull();
    expect(cleanLink({ ref: 2, url: 'https://a.example/', anchor: 5, before: 'b'.repeat(5000) }, PAGE)).toEqual({
      ref: 2,
      url: 'https://a.example/',
      pageUrl: PAGE,
      anchor: '',
      before: 'b'.repeat(2000),
      after: '',
    });
  });

  it('puts the page’s on-topic count on its tab’s badge', async () => {
    await createContentHandlers(services)['page/count']({ type: 'page/count', pageUrl: PAGE, onTopic: 7, total: 20 }, origin);
    expect(badges.get(1)).toBe(7);
  });

  it('marks a page: every stored context pointing to it is relabeled, its tab and then every other tab refreshed', async () => {
    await createTopic();
    await createContentHandlers(services)['page/links']({ type: 'page/links', pageUrl: PAGE, title: '', links: hubLinks(), first: true }, origin);
    sent = [];
    const reply = await createUiHandlers(services)['page/mark']({ type: 'page/mark', tabId: 1, pageUrl: 'https://sport.example.org/0#x', label: 1 });
    expect(reply).toEqual({ ok: true, labeled: 1 });
    expect(sent).toEqual([
      { tabId: 1, message: { type: 'verdicts/refresh' } },
      { tabId: 2, message: { type: 'verdicts/refresh' } },
    ]);
    expect((await db.examples.where('url').equals('https://sport.example.org/0').first())?.source).toBe('page');
  });

  it('excludes a site: its pages stay idle', async () => {
    await createTopic();
    const ui = createUiHandlers(services);
    const reply = await ui['site/toggle']({ type: 'site/toggle', host: 'portal.example.net', enabled: false });
    expect(reply.settings.excludedSites).toEqual(['portal.example.net']);
    const content = createContentHandlers(services);
    expect((await content['page/settings']({ type: 'page/settings', pageUrl: PAGE }, origin)).enabled).toBe(false);
    await ui['site/toggle']({ type: 'site/toggle', host: 'portal.example.net', enabled: true });
    expect((await content['page/settings']({ type: 'page/settings', pageUrl: PAGE }, origin)).enabled).toBe(true);
  });

  it('exports, and imports with a clear message for a wrong file', async () => {
    await createTopic();
    const ui = createUiHandlers(services);
    const exported = await ui['db/export']({ type: 'db/export' });
    if (!exported.ok) throw new Error(exported.error);
    expect(exported.fileName).toMatch(/^linkscent-\d{8}-\d{6}\.json$/);
    expect(await ui['db/import']({ type: 'db/import', fileText: 'not json' })).toEqual({ ok: false, error: expect.stringMatching(/^corrupt model file/) });
    expect(await ui['db/import']({ type: 'db/import', fileText: '' })).toEqual({ ok: false, error: 'The file is empty.' });
    // Merged into what is stored: the topic is the same, and it has no examples yet.
    expect(await ui['db/import']({ type: 'db/import', fileText: exported.fileText })).toMatchObject({ ok: true, topics: 1, examples: 0, duplicates: 0 });
  });

  it('retrains the model from its examples when the lexicon changes', async () => {
    const topic = await createTopic();
    await createContentHandlers(services)['page/links']({ type: 'page/links', pageUrl: PAGE, title: '', links: hubLinks(), first: true }, origin);
    await engine.flush();
    const lexFeatures = async () => (await db.features.where('topic').equals(topic.id).toArray()).filter((row) => row.feature.startsWith('lex:'));
    expect(await lexFeatures()).toEqual([]);
    const reply = await createUiHandlers(services)['topics/save']({ type: 'topics/save', topic: { ...topic, lexicon: ['股票', '基金'] } });
    expect(reply.ok).toBe(true);
    expect((await lexFeatures()).map((row) => [row.feature, row.count])).toEqual([['lex:anchor', [0, 4]]]);
  });

  it('deletes the active topic and falls back to another', async () => {
    const first = await createTopic();
    const ui = createUiHandlers(services);
    const second = await ui['topics/save']({ type: 'topics/save', topic: { name: '体育' } });
    await ui['topics/delete']({ type: 'topics/delete', topicId: first.id });
    expect(await ui['topics/list']({ type: 'topics/list' })).toMatchObject({ activeId: second.ok && second.topic.id });
  });
});
