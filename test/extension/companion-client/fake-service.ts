/**
 * Test support: a stand-in for the companion's loopback service as a `fetch` function, answering
 * the few routes of docs/service-api.md the extension calls, and recording every request. The
 * end-to-end test (test/e2e/crawl-from-here.e2e.test.ts) runs against the real service.
 */
import type { CrawlInfo } from '../../../shared/service-api/types.ts';
import type { FetchLike } from '../../../extension/companion-client/client.ts';

export function crawlInfo(overrides: Partial<CrawlInfo> = {}): CrawlInfo {
  return {
    id: 'c1',
    state: 'running',
    createdAt: 1,
    seeds: ['https://news.example.com/'],
    strategy: 'nb',
    topic: { id: 'finance', name: '财经' },
    maxPages: 200,
    progress: { fetched: 3, maxPages: 200, queued: 12, errors: 0, judged: 3, relevant: 1, harvest: 1 / 3, pagesPerSecond: 1.5, elapsedMs: 2000 },
    dashboardPath: '/dashboard#crawl=c1',
    ...overrides,
  };
}

export interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string | undefined;
}

export interface FakeService {
  fetch: FetchLike;
  requests: Recorded[];
  token: string;
  /** Whether it answers at all (false: connection refused). */
  running: boolean;
  /** The crawl `GET /api/crawls/:id` answers with (null: 404). */
  crawl: CrawlInfo | null;
  /** What `GET /api/crawls/:id/labels` answers. */
  labels: string;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function fakeService(token: string): FakeService {
  const service: FakeService = {
    requests: [],
    token,
    running: true,
    crawl: null,
    labels: '',
    async fetch(url, init = {}) {
      if (!service.running) throw new TypeError('Failed to fetch');
      const { pathname } = new URL(url);
      const method = init.method ?? 'GET';
      const headers = (init.headers ?? {}) as Record<string, string>;
      service.requests.push({ method, path: pathname, authorization: headers['Authorization'], body: init.body as string | undefined });
      if (headers['Authorization'] !== `Bearer ${service.token}`) return json(401, { error: 'wrong pairing token' });
      if (method === 'GET' && pathname === '/api/status') return json(200, { version: '0.1.0', port: Number(new URL(url).port), crawls: service.crawl ? [service.crawl] : [] });
      if (method === 'POST' && pathname === '/api/models') {
        const file = JSON.parse(init.body as string) as { data: { data: { tableName: string; rows: { id?: string; name?: string }[] }[] } };
        const topics = file.data.data.find((t) => t.tableName === 'topics')!.rows.map((t) => ({ id: t.id!, name: t.name!, examples: 0 }));
        return json(201, { modelId: '0123456789abcdef', topics });
      }
      if (method === 'POST' && pathname === '/api/crawls') {
        service.crawl = crawlInfo({ id: 'c1', seeds: (JSON.parse(init.body as string) as { seeds: string[] }).seeds });
        return json(201, service.crawl);
      }
      const crawl = /^\/api\/crawls\/([^/]+)(\/labels)?$/.exec(pathname);
      if (method === 'GET' && crawl) {
        if (service.crawl === null || service.crawl.id !== crawl[1]) return json(404, { error: `no crawl "${crawl[1]}"` });
        return crawl[2] ? new Response(service.labels, { status: 200 }) : json(200, service.crawl);
      }
      return json(404, { error: `no API route ${pathname}` });
    },
  };
  return service;
}
