/**
 * A served crawl's records (issue 13): `warc: true` writes WARC files into the crawl's directory,
 * `storeText: true` keeps each page's text, which `GET /api/crawls/:id/text` gives back; bad
 * values are refused in one line naming the field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readMinimalWarc } from '../../../tools/minimal-warc.ts';
import { call, parseJsonl, tempHome, waitForCrawl } from './service-helpers.ts';

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

let site: ScriptedSite;
let home: ReturnType<typeof tempHome>;
let service: RunningService;

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(service.port, path, { token: service.token, ...options });

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => {
      if (path === '/') return page('目录', '<p>一个小小的网站。</p><a href="/a">文章 A</a> <a href="/b">文章 B</a>');
      if (path === '/a') return page('文章 A', '<p>摄影的正文：光圈与快门。</p><a href="/">首页</a>');
      if (path === '/b') return page('文章 B', '<p>另一篇正文。</p>');
      return undefined;
    },
  });
  home = tempHome();
  service = await startService({ port: 0, home: join(home.dir, 'home'), log: () => {} });
});
afterAll(async () => {
  await service?.close();
  await site?.close();
  home?.cleanup();
});

async function crawl(body: object): Promise<string> {
  const created = await api('/api/crawls', { body: { seeds: [`${site.origin}/`], delayMs: 0, maxPages: 5, ...body } });
  expect(created.status, created.text).toBe(201);
  const { id } = created.json();
  await waitForCrawl(service.port, service.token, id, (info) => info.state === 'done');
  return id;
}

describe('a served crawl with warc and storeText', () => {
  it('writes WARC files into its directory and gives each page\'s text back', { timeout: 60_000 }, async () => {
    const id = await crawl({ warc: true, storeText: true });
    const dir = join(home.dir, 'home', 'crawls', id);
    const names = readdirSync(join(dir, 'warc')).filter((name) => name.endsWith('.warc.gz'));
    expect(names).toHaveLength(1);
    const records = readMinimalWarc(readFileSync(join(dir, 'warc', names[0]!)));
    const responses = records.filter((r) => r.headers.get('warc-type') === 'response').map((r) => r.headers.get('warc-target-uri')).sort();
    const pages = parseJsonl((await api(`/api/crawls/${id}/pages.jsonl`)).text);
    expect(responses).toEqual(pages.filter((p) => p.outcome === 'ok').map((p) => p.url).sort());
    expect(responses).toHaveLength(3);

    const text = await api(`/api/crawls/${id}/text?url=${encodeURIComponent(`${site.origin}/a`)}`);
    expect(text.status).toBe(200);
    expect(text.json()).toEqual({ url: `${site.origin}/a`, title: '文章 A', text: '摄影的正文：光圈与快门。', truncated: false });
    const unknown = await api(`/api/crawls/${id}/text?url=${encodeURIComponent(`${site.origin}/nowhere`)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json().error).toMatch(/no page/);
  });

  it('says so when a crawl kept no text, and refuses a non-boolean option naming it', { timeout: 60_000 }, async () => {
    const id = await crawl({});
    const reply = await api(`/api/crawls/${id}/text?url=${encodeURIComponent(`${site.origin}/a`)}`);
    expect(reply.status).toBe(404);
    expect(reply.json().error).toBe('this crawl kept no page text (start crawls with storeText: true)');
    const missing = await api(`/api/crawls/${id}/text`);
    expect(missing.status).toBe(400);
    const bad = await api('/api/crawls', { body: { seeds: [`${site.origin}/`], warc: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toBe('warc must be true or false, got "yes"');
  });
});
