/**
 * The crawls' event streams (`service/sse.ts`) under many clients: at most `maxEventStreams` open
 * at once, one more refused with 503, Retry-After and one line of JSON; every client of a crawl
 * gets the same events and its `end`; a client that comes after the end gets the last progress
 * and `end` at once. A real service on loopback, crawling the loopback test site.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { call, readEvents, tempHome, waitForCrawl } from './service-helpers.ts';

const MAX_STREAMS = 3;
let site: SiteServer;
let slowSite: SiteServer;
let home: ReturnType<typeof tempHome>;
let service: RunningService;

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(service.port, path, { token: service.token, ...options });

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 5 });
  slowSite = await startSiteServer({ perTopic: 20, delayMs: 200 });
  home = tempHome();
  service = await startService({ port: 0, home: join(home.dir, 'home'), log: () => {}, maxEventStreams: MAX_STREAMS });
});
afterAll(async () => {
  await service?.close();
  await site?.close();
  await slowSite?.close();
  home?.cleanup();
});

/** Opens a stream and resolves once its headers came; the request, to close it. */
function openStream(id: string): Promise<{ status: number; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: service.port, path: `/api/crawls/${id}/events`, headers: { host: `127.0.0.1:${service.port}`, authorization: `Bearer ${service.token}` }, agent: false },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, req });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('event streams', () => {
  it(`serves at most ${MAX_STREAMS} at once: one more is 503 with Retry-After and one line; a freed place is taken again`, { timeout: 30_000 }, async () => {
    const created = (await api('/api/crawls', { body: { seeds: [`${slowSite.origin}/`], maxPages: 50, delayMs: 0, concurrency: 1 } })).json();
    const open = await Promise.all(Array.from({ length: MAX_STREAMS }, () => openStream(created.id)));
    expect(open.map((s) => s.status)).toEqual(Array(MAX_STREAMS).fill(200));

    const refused = await api(`/api/crawls/${created.id}/events`);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(Object.keys(refused.json())).toEqual(['error']);
    expect(refused.json().error).toMatch(/^3 event streams are open, the most this service serves at once; try again later$/);
    expect(refused.text.trim().split('\n')).toHaveLength(1);

    open[0]!.req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100)); // the service sees the close
    const again = await openStream(created.id);
    expect(again.status).toBe(200);
    for (const stream of [...open.slice(1), again]) stream.req.destroy();
    await api(`/api/crawls/${created.id}/stop`, { body: '' });
  });

  it('gives every client of a crawl the same events and its end; a late client gets the last progress and end at once', { timeout: 60_000 }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the previous test's streams closed
    const created = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], maxPages: 15, delayMs: 0 } })).json();
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS }, () => readEvents(service.port, service.token, created.id)));
    for (const events of streams) {
      expect(events.at(-1)).toEqual({ event: 'end', data: { id: created.id, state: 'done' } });
      const progress = events.filter((e) => e.event === 'progress');
      expect(progress.at(-1)!.data.state).toBe('done');
      expect(progress.at(-1)!.data.progress.fetched).toBe(15);
    }
    const done = await waitForCrawl(service.port, service.token, created.id, (info) => info.state === 'done');
    const started = Date.now();
    const late = await readEvents(service.port, service.token, created.id);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(late).toEqual([
      { event: 'progress', data: done },
      { event: 'end', data: { id: created.id, state: 'done' } },
    ]);
  });
});
