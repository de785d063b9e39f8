/**
 * The crawl API end to end, in process: a model file uploaded, an nb crawl of the loopback site
 * followed over server-sent events to its end, its pages listed and downloaded, the labels it
 * learned exported as a model file the extension can merge; pause, resume and stop; and a service
 * closed mid-crawl that resumes the crawl when started again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeModelFile } from '../../../shared/model/model-file.ts';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { call, parseJsonl, readEvents, tempHome, waitForCrawl, writeFinanceModel } from './service-helpers.ts';

let site: SiteServer;
let slowSite: SiteServer;
let home: ReturnType<typeof tempHome>;
let service: RunningService;
let modelText: string;
const logs: string[] = [];

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(service.port, path, { token: service.token, ...options });

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 10 });
  slowSite = await startSiteServer({ perTopic: 20, delayMs: 40 });
  home = tempHome();
  const modelPath = join(home.dir, 'upload.json');
  await writeFinanceModel(modelPath, site);
  modelText = readFileSync(modelPath, 'utf8');
  service = await startService({ port: 0, home: join(home.dir, 'home'), log: (line) => logs.push(line) });
});
afterAll(async () => {
  await service?.close();
  await site?.close();
  await slowSite?.close();
  home?.cleanup();
});

/** Site pages a crawl may fetch (robots.txt forbids /private/). */
const fetchable = (s: SiteServer) => new Set(s.paths().filter((p) => !p.startsWith('/private/')).map((p) => `${s.origin}${p}`));

describe('models', () => {
  it('POST /api/models keeps the file and names its topics; GET gives it back', async () => {
    const reply = await api('/api/models', { body: modelText });
    expect(reply.status).toBe(201);
    const body = reply.json();
    expect(body.modelId).toMatch(/^[0-9a-f]{16}$/);
    expect(body.topics).toEqual([{ id: 'topic-finance', name: '财经', examples: expect.any(Number) }]);
    expect(body.topics[0].examples).toBeGreaterThan(50);
    const again = await api('/api/models', { body: modelText });
    expect(again.json().modelId).toBe(body.modelId); // same file, same id
    const file = await api(`/api/models/${body.modelId}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe(modelText);
  });
});

describe('an nb crawl with a model', () => {
  it('runs to the end over SSE, lists and downloads its pages, exports its learned labels', { timeout: 60_000 }, async () => {
    const { modelId } = (await api('/api/models', { body: modelText })).json();
    const created = await api('/api/crawls', { body: { seeds: [`${site.origin}/`], modelId, maxPages: 20, delayMs: 0 } });
    expect(created.status).toBe(201);
    const info = created.json();
    expect(info).toMatchObject({
      state: 'running',
      strategy: 'nb',
      topic: { id: 'topic-finance', name: '财经' },
      maxPages: 20,
      seeds: [`${site.origin}/`],
      dashboardPath: `/dashboard#crawl=${info.id}`,
    });
    expect(info.id).toMatch(/^[A-Za-z0-9_-]+$/);

    const events = await readEvents(service.port, service.token, info.id);
    expect(events.at(-1)).toEqual({ event: 'end', data: { id: info.id, state: 'done' } });
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)!.data.state).toBe('done');

    const done = (await api(`/api/crawls/${info.id}`)).json();
    expect(done.state).toBe('done');
    expect(done.progress).toMatchObject({ fetched: 20, maxPages: 20, errors: 0, judged: 20 });
    // The judge is the topic's on-topic pattern. The site has 11 finance pages (section + 10
    // articles) among 34; a focused crawl of 20 pages finds nearly all of them.
    expect(done.progress.relevant).toBeGreaterThanOrEqual(10);
    expect(done.progress.harvest).toBeCloseTo(done.progress.relevant / 20, 10);

    const listed = (await api(`/api/crawls/${info.id}/pages?offset=0&limit=100`)).json();
    const fetched = listed.pages.filter((p: any) => p.outcome !== 'robots-denied');
    expect(fetched).toHaveLength(20);
    expect(listed.total).toBe(listed.pages.length);
    const urls = listed.pages.map((p: any) => p.url);
    expect(new Set(urls).size).toBe(urls.length);
    for (const page of fetched) expect(fetchable(site).has(page.url)).toBe(true);
    for (const page of fetched) expect(page.relevance).toBe(new URL(page.finalUrl).pathname.startsWith('/finance/') ? 1 : 0);
    const slice = (await api(`/api/crawls/${info.id}/pages?offset=5&limit=3`)).json();
    expect(slice).toEqual({ total: listed.total, pages: listed.pages.slice(5, 8) });

    const download = await api(`/api/crawls/${info.id}/pages.jsonl`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".*\.jsonl"$/);
    expect(parseJsonl(download.text)).toEqual(listed.pages);

    const labels = await api(`/api/crawls/${info.id}/labels`);
    expect(labels.status).toBe(200);
    const file = decodeModelFile(labels.text);
    expect(file.topics.map((t) => t.id)).toEqual(['topic-finance']);
    expect(file.examples.length).toBeGreaterThan(20);
    expect(file.examples.every((e) => e.source === 'crawl' && e.topic === 'topic-finance')).toBe(true);
    for (const e of file.examples) expect(e.label).toBe(new URL(e.url).pathname.startsWith('/finance/') ? 1 : 0);
    expect(file.models).toHaveLength(0); // labels only: merging must not replace the model

    const list = (await api('/api/crawls')).json();
    expect(list.map((c: any) => c.id)).toContain(info.id);
    const status = (await api('/api/status')).json();
    expect(status).toMatchObject({ version: expect.any(String), port: service.port });
    expect(status.crawls.length).toBe(list.length);
  });

  it('a crawl without patterns judges by the model score; bfs without a model has no labels', { timeout: 60_000 }, async () => {
    const path = join(home.dir, 'plain.json');
    await writeFinanceModel(path, site, { positive: [], name: 'plain' });
    const { modelId } = (await api('/api/models', { body: readFileSync(path, 'utf8') })).json();
    const crawl = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], modelId, maxPages: 10, delayMs: 0 } })).json();
    const done = await waitForCrawl(service.port, service.token, crawl.id, (c) => c.state !== 'running');
    expect(done).toMatchObject({ state: 'done', progress: { fetched: 10, judged: 10 } });
    const pages = (await api(`/api/crawls/${crawl.id}/pages`)).json().pages;
    for (const page of pages) expect(page.relevance).toBeCloseTo(page.score, 10);

    const bfs = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], maxPages: 5, delayMs: 0 } })).json();
    expect(bfs).toMatchObject({ strategy: 'bfs', topic: null });
    const bfsDone = await waitForCrawl(service.port, service.token, bfs.id, (c) => c.state !== 'running');
    expect(bfsDone.progress).toMatchObject({ fetched: 5, harvest: null });
    const labels = await api(`/api/crawls/${bfs.id}/labels`);
    expect(labels.status).toBe(409);
    expect(labels.json().error).toMatch(/without a model/);
  });

  it('a topicId the model lacks is a 400 naming the topics it has', async () => {
    const { modelId } = (await api('/api/models', { body: modelText })).json();
    const reply = await api('/api/crawls', { body: { seeds: [`${site.origin}/`], modelId, topicId: 'sports' } });
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatch(/no topic "sports"; it has "财经"/);
  });
});

describe('pause, resume, stop', () => {
  it('pause keeps the frontier, resume goes on to maxPages with no page twice', { timeout: 60_000 }, async () => {
    const crawl = (await api('/api/crawls', { body: { seeds: [`${slowSite.origin}/`], maxPages: 30, delayMs: 0, concurrency: 2 } })).json();
    await waitForCrawl(service.port, service.token, crawl.id, (c) => c.progress.fetched >= 5);
    const paused = await api(`/api/crawls/${crawl.id}/pause`, { method: 'POST' });
    expect(paused.status).toBe(200);
    expect(paused.json().state).toBe('paused');
    expect((await api(`/api/crawls/${crawl.id}/pause`, { method: 'POST' })).json().state).toBe('paused');
    await new Promise((r) => setTimeout(r, 300)); // in-flight fetches abandoned by now
    const atPause = (await api(`/api/crawls/${crawl.id}`)).json().progress.fetched;
    await new Promise((r) => setTimeout(r, 300));
    const later = (await api(`/api/crawls/${crawl.id}`)).json();
    expect(later).toMatchObject({ state: 'paused', progress: { fetched: atPause } });
    expect(atPause).toBeLessThan(30);
    const crawlJson = JSON.parse(readFileSync(join(service.home, 'crawls', crawl.id, 'crawl.json'), 'utf8'));
    expect(crawlJson.state).toBe('paused');

    const resumed = await api(`/api/crawls/${crawl.id}/resume`, { method: 'POST' });
    expect(resumed.json().state).toBe('running');
    const done = await waitForCrawl(service.port, service.token, crawl.id, (c) => c.state !== 'running');
    expect(done).toMatchObject({ state: 'done', progress: { fetched: 30 } });
    const pages = parseJsonl((await api(`/api/crawls/${crawl.id}/pages.jsonl`)).text).filter((p) => p.outcome !== 'robots-denied');
    expect(pages).toHaveLength(30);
    expect(new Set(pages.map((p) => p.url)).size).toBe(30);
    expect((await api(`/api/crawls/${crawl.id}/resume`, { method: 'POST' })).status).toBe(409);
  });

  it('stop is final', { timeout: 30_000 }, async () => {
    const crawl = (await api('/api/crawls', { body: { seeds: [`${slowSite.origin}/`], maxPages: 50, delayMs: 0 } })).json();
    const events = readEvents(service.port, service.token, crawl.id);
    await waitForCrawl(service.port, service.token, crawl.id, (c) => c.progress.fetched >= 2);
    const stopped = await api(`/api/crawls/${crawl.id}/stop`, { method: 'POST' });
    expect(stopped.json().state).toBe('stopped');
    expect((await events).at(-1)).toEqual({ event: 'end', data: { id: crawl.id, state: 'stopped' } });
    expect((await api(`/api/crawls/${crawl.id}/stop`, { method: 'POST' })).status).toBe(200);
    const resume = await api(`/api/crawls/${crawl.id}/resume`, { method: 'POST' });
    expect(resume.status).toBe(409);
    expect(resume.json().error).toMatch(/is stopped and cannot be resumed/);
    expect((await api(`/api/crawls/${crawl.id}/pause`, { method: 'POST' })).status).toBe(409);
  });

  it('a service closed mid-crawl resumes the crawl when started again', { timeout: 60_000 }, async () => {
    const crawl = (await api('/api/crawls', { body: { seeds: [`${slowSite.origin}/`], maxPages: 25, delayMs: 0 } })).json();
    await waitForCrawl(service.port, service.token, crawl.id, (c) => c.progress.fetched >= 4);
    await service.close();
    service = await startService({ port: 0, home: service.home, log: (line) => logs.push(line) });
    const done = await waitForCrawl(service.port, service.token, crawl.id, (c) => c.state !== 'running');
    expect(done).toMatchObject({ state: 'done', progress: { fetched: 25 } });
    const pages = parseJsonl((await api(`/api/crawls/${crawl.id}/pages.jsonl`)).text).filter((p) => p.outcome !== 'robots-denied');
    expect(new Set(pages.map((p) => p.url)).size).toBe(25);
    expect(pages).toHaveLength(25);
    expect(logs.some((line) => line.includes(`resuming crawl ${crawl.id}`))).toBe(true);
  });
});
