/**
 * The background's companion requests (pairing, "Crawl from here", the last crawl, pulling
 * labels) with the real engine and Dexie stores on fake-indexeddb, against a stand-in service
 * (`fake-service.ts`); the end-to-end test runs them against the real one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundServices } from '../../../extension/background/services.ts';
import { createUiHandlers } from '../../../extension/background/ui-handlers.ts';
import type { WorkerRemote } from '../../../extension/background/worker-host.ts';
import { createDexieCompanionStore, createDexieSettingsStore, createDexieTopicStore } from '../../../extension/storage/dexie-stores.ts';
import { CRAWL_CHOICE_DEFAULTS } from '../../../extension/storage/validate.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { labelsFileText } from '../../../companion/model/link-model-file.ts';
import type { Topic } from '../../../shared/model/types.ts';
import { hubExamples, memoryDb, tokenizer } from '../support/memory-db.ts';
import { crawlInfo, fakeService, type FakeService } from '../companion-client/fake-service.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

let db: LinkScentDb;
let engine: Engine;
let service: FakeService;
let refreshed: number;
let ui: ReturnType<typeof createUiHandlers>;

beforeEach(async () => {
  db = await memoryDb();
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
  service = fakeService(TOKEN);
  refreshed = 0;
  const services: BackgroundServices = {
    topics: createDexieTopicStore(db),
    settings: createDexieSettingsStore(db),
    companion: createDexieCompanionStore(db),
    worker: { call: (_what, fn) => fn(engine as unknown as WorkerRemote) },
    tabs: {
      async send() {
        refreshed++;
        return { ok: true } as never;
      },
      allTabIds: async () => [1],
      urlOf: async () => null,
    },
    badge: { set: async () => undefined },
    fetch: service.fetch,
  };
  ui = createUiHandlers(services);
});
afterEach(async () => {
  await engine.flush();
  db.close();
});

async function topicWithExamples(): Promise<Topic> {
  const reply = await ui['topics/save']({ type: 'topics/save', topic: { name: '财经', positive: ['finance.example.org'], negative: ['sport.example.org'] } });
  if (!reply.ok) throw new Error(reply.error);
  await engine.observe(reply.topic, hubExamples(reply.topic.id));
  return reply.topic;
}

const pair = (token = TOKEN, port = 7431) => ui['companion/pair']({ type: 'companion/pair', port, token });
const start = (pageUrl = 'https://news.example.com/a.html#top') => ui['crawl/start']({ type: 'crawl/start', pageUrl });

describe('pairing', () => {
  it('stores port and token (the whole printed line is accepted), then reports the companion', async () => {
    expect(await ui['companion/get']({ type: 'companion/get' })).toEqual({ port: 7431, token: '', crawlChoice: CRAWL_CHOICE_DEFAULTS });
    expect(await pair(`pairing token: ${TOKEN}`, 7432)).toEqual({ ok: true, status: { version: '0.1.0', port: 7432, crawls: 0 } });
    expect(await ui['companion/get']({ type: 'companion/get' })).toEqual({ port: 7432, token: TOKEN, crawlChoice: CRAWL_CHOICE_DEFAULTS });
    expect(service.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['GET', '/api/status', `Bearer ${TOKEN}`]]);
  });

  it('refuses a port or token of the wrong form without asking the companion', async () => {
    expect(await pair(TOKEN, 70000)).toMatchObject({ ok: false, error: expect.stringMatching(/port must be a whole number/) });
    expect(await pair('not a token!', 7431)).toMatchObject({ ok: false, error: expect.stringMatching(/not a pairing token/) });
    expect(service.requests).toEqual([]);
  });

  it('says which problem a failed pairing has, and keeps what was typed', async () => {
    expect(await pair('x'.repeat(43))).toMatchObject({ ok: false, problem: 'token-refused', port: 7431 });
    service.running = false;
    expect(await pair()).toMatchObject({ ok: false, problem: 'not-running', error: expect.stringMatching(/npx linkscent serve/) });
    expect(await ui['companion/get']({ type: 'companion/get' })).toEqual({ port: 7431, token: TOKEN, crawlChoice: CRAWL_CHOICE_DEFAULTS });
    expect(await ui['companion/status']({ type: 'companion/status' })).toMatchObject({ ok: false, problem: 'not-running' });
  });

  it('forgets the pairing with an empty token', async () => {
    await pair();
    expect(await pair('')).toEqual({ ok: true, status: null });
    expect(await ui['companion/status']({ type: 'companion/status' })).toMatchObject({ ok: false, problem: 'not-paired' });
  });
});

describe('Crawl from here', () => {
  it('says so plainly when not paired, and asks the companion nothing', async () => {
    await topicWithExamples();
    expect(await start()).toMatchObject({ ok: false, problem: 'not-paired' });
    expect(await ui['crawl/get']({ type: 'crawl/get' })).toEqual({ ok: true, crawl: null, paired: false });
    expect(service.requests).toEqual([]);
  });

  it('needs an active topic with examples, and a web page', async () => {
    await pair();
    expect(await start()).toEqual({ ok: false, problem: 'no-topic', port: 7431, error: 'Choose or create a topic first.' });
    const reply = await ui['topics/save']({ type: 'topics/save', topic: { name: 'empty' } });
    expect(reply.ok).toBe(true);
    expect(await start()).toMatchObject({ ok: false, problem: 'no-examples', error: expect.stringMatching(/no labeled examples yet/) });
    await topicWithExamples();
    await ui['topics/activate']({ type: 'topics/activate', topicId: (await db.topics.where('name').equals('财经').first())!.id });
    expect(await start('chrome://extensions/')).toMatchObject({ ok: false, problem: 'not-web-page' });
  });

  it('uploads the topic’s model, starts the crawl with the page as seed, and remembers it', async () => {
    const topic = await topicWithExamples();
    await pair();
    service.requests.length = 0;
    const reply = await start();
    if (!reply.ok) throw new Error(reply.error);
    expect(service.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/api/status'],
      ['POST', '/api/models'],
      ['POST', '/api/crawls'],
    ]);
    const upload = service.requests[1]!.body!;
    expect(upload).not.toContain(TOKEN);
    const tables = (JSON.parse(upload) as { data: { data: { tableName: string; rows: unknown[] }[] } }).data.data;
    expect(Object.fromEntries(tables.map((t) => [t.tableName, t.rows.length]))).toMatchObject({ topics: 1, examples: 12, models: 1, pages: 0, settings: 0 });
    expect(JSON.parse(service.requests[2]!.body!)).toEqual({
      seeds: ['https://news.example.com/a.html'],
      modelId: '0123456789abcdef',
      topicId: topic.id,
      maxPages: 200,
      maxDepth: 3,
    });
    expect(reply.crawl.dashboardUrl).toBe(`http://127.0.0.1:7431/dashboard?token=${TOKEN}#crawl=c1`);
    expect((await createDexieCompanionStore(db).get()).lastCrawl).toMatchObject({ id: 'c1', topicId: topic.id });
  });

  it('starts within the chosen pages, depth and scope, and remembers the choice for next time', async () => {
    await topicWithExamples();
    await pair();
    service.requests.length = 0;
    const choice = { maxPages: 30, maxDepth: 1, scope: 'seed-hosts' as const };
    const reply = await ui['crawl/start']({ type: 'crawl/start', pageUrl: 'https://news.example.com/a.html', choice });
    if (!reply.ok) throw new Error(reply.error);
    expect(JSON.parse(service.requests[2]!.body!)).toMatchObject({ maxPages: 30, maxDepth: 1, sameSite: true });
    expect(reply.crawl.choice).toEqual(choice);
    expect((await ui['companion/get']({ type: 'companion/get' })).crawlChoice).toEqual(choice);
    // The next crawl without a choice takes the remembered one, and crawl/get shows it.
    service.requests.length = 0;
    await start();
    expect(JSON.parse(service.requests[2]!.body!)).toMatchObject({ maxPages: 30, maxDepth: 1, sameSite: true });
    expect(await ui['crawl/get']({ type: 'crawl/get' })).toMatchObject({ ok: true, crawl: { choice } });
  });

  it('refuses a choice out of range in one line, asking the companion nothing', async () => {
    await topicWithExamples();
    await pair();
    service.requests.length = 0;
    const reply = await ui['crawl/start']({ type: 'crawl/start', pageUrl: 'https://news.example.com/a.html', choice: { maxPages: 0, maxDepth: 1, scope: 'any' } });
    expect(reply).toMatchObject({ ok: false, error: 'Pages must be a whole number from 1 to 100000, not 0.' });
    expect(service.requests).toEqual([]);
  });

  it('crawls from here for each of several topics', async () => {
    const first = await topicWithExamples();
    const second = await ui['topics/save']({ type: 'topics/save', topic: { name: '体育', positive: ['sport.example.org'], negative: ['finance.example.org'] } });
    if (!second.ok) throw new Error(second.error);
    await engine.observe(second.topic, hubExamples(second.topic.id, 'https://portal2.example.net/'));
    await pair();
    for (const topic of [first, second.topic]) {
      await ui['topics/activate']({ type: 'topics/activate', topicId: topic.id });
      const reply = await start();
      if (!reply.ok) throw new Error(reply.error);
      const body = JSON.parse(service.requests.filter((r) => r.path === '/api/models').at(-1)!.body!) as { data: { data: { tableName: string; rows: { id?: string }[] }[] } };
      expect(body.data.data.find((t) => t.tableName === 'topics')!.rows.map((row) => row.id)).toEqual([topic.id]);
    }
  });

  it('shows the last crawl as the companion reports it, and forgets one the companion forgot', async () => {
    await topicWithExamples();
    await pair();
    await start();
    service.crawl = crawlInfo({ state: 'done', progress: { ...crawlInfo().progress, fetched: 42 } });
    expect(await ui['crawl/get']({ type: 'crawl/get' })).toMatchObject({ ok: true, paired: true, crawl: { info: { state: 'done', progress: { fetched: 42 } } } });
    service.running = false;
    expect(await ui['crawl/get']({ type: 'crawl/get' })).toMatchObject({ ok: false, problem: 'not-running', port: 7431 });
    service.running = true;
    service.crawl = null;
    expect(await ui['crawl/get']({ type: 'crawl/get' })).toEqual({ ok: true, crawl: null, paired: true });
    expect((await createDexieCompanionStore(db).get()).lastCrawl).toBeNull();
  });

  it('pulls the crawl’s labels into its topic without duplicates, and pages re-score', async () => {
    const topic = await topicWithExamples();
    await pair();
    await start();
    const crawled = [...hubExamples(topic.id), ...hubExamples(topic.id, 'https://crawled.example.net/')].map((e) => ({ ...e, source: 'crawl' as const }));
    service.labels = labelsFileText(topic, crawled);

    refreshed = 0;
    expect(await ui['crawl/pull-labels']({ type: 'crawl/pull-labels' })).toEqual({ ok: true, offered: 24, added: 12, duplicates: 12 });
    expect(refreshed).toBe(1);
    expect(await engine.counts(topic)).toMatchObject({ bySource: { pattern: 12, crawl: 12 } });
    expect(await ui['crawl/pull-labels']({ type: 'crawl/pull-labels' })).toEqual({ ok: true, offered: 24, added: 0, duplicates: 24 });
  });

  it('says why labels cannot be pulled', async () => {
    expect(await ui['crawl/pull-labels']({ type: 'crawl/pull-labels' })).toMatchObject({ ok: false, problem: 'no-crawl' });
    await topicWithExamples();
    await pair();
    await start();
    service.labels = '<html>not a model file</html>';
    expect(await ui['crawl/pull-labels']({ type: 'crawl/pull-labels' })).toMatchObject({
      ok: false,
      problem: 'bad-labels',
      detail: expect.stringMatching(/model file/),
    });
    await db.topics.clear();
    expect(await ui['crawl/pull-labels']({ type: 'crawl/pull-labels' })).toMatchObject({ ok: false, problem: 'topic-gone' });
  });
});
