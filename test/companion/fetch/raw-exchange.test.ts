/**
 * The fetcher hands back the exchange as on the wire when asked (`keepRaw`), for WARC records:
 * the request as sent (the server's own view of its headers), the response headers as received
 * (case, order, repeats), and the body after de-chunking with its Content-Encoding kept.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS } from '../../../companion/fetch/fetch-options.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { createFetchAgent } from '../../../companion/fetch/http-agent.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';

const HTML = `<!doctype html><html><head><title>原始字节</title></head><body><p>${'正文 text '.repeat(400)}</p></body></html>`;
const GZIPPED = gzipSync(Buffer.from(HTML));

let site: ScriptedSite;
const agent = createFetchAgent(5_000);

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => {
      if (path.startsWith('/chunked')) {
        return { body: HTML, pieces: 1000, headers: [['Content-Type', 'text/html; charset=utf-8'], ['Set-Cookie', 'a=1'], ['X-Mixed-Case', 'yes'], ['Set-Cookie', 'b=2']] };
      }
      if (path === '/gzip') return { body: GZIPPED, pieces: 500, headers: [['Content-Type', 'text/html; charset=utf-8'], ['Content-Encoding', 'gzip']] };
      return undefined;
    },
  });
});
afterAll(async () => {
  await site.close();
  await agent.close();
});

const options = { ...DEFAULT_FETCH_OPTIONS, keepRaw: true };

describe('fetchPage keepRaw', () => {
  it('gives the request as the server received it and the response headers as sent, in order', async () => {
    const page = await fetchPage(`${site.origin}/chunked?q=1`, options, agent);
    expect(page.outcome).toBe('ok');
    const raw = page.raw!;
    expect(raw.request.target).toBe('/chunked?q=1');
    const received = site.requests.find((r) => r.path === '/chunked?q=1')!.rawHeaders;
    expect(raw.request.headers.flat()).toEqual(received);
    expect(raw.response.status).toBe(200);
    expect(raw.response.statusText).toBe('OK');
    const names = raw.response.headers.map(([name]) => name);
    // The server's own headers keep their case and order; repeats stay apart.
    expect(names.slice(0, 4)).toEqual(['Content-Type', 'Set-Cookie', 'X-Mixed-Case', 'Set-Cookie']);
    expect(raw.response.headers).toContainEqual(['Transfer-Encoding', 'chunked']);
    // De-chunked: the body is the page's bytes, not the chunk framing.
    expect(Buffer.concat(raw.body).toString('utf8')).toBe(HTML);
    expect(Date.parse(raw.sentAt)).not.toBeNaN();
  });

  it('keeps a gzip body as it came (still coded) while the page is decoded', async () => {
    const page = await fetchPage(`${site.origin}/gzip`, options, agent);
    expect(page.outcome).toBe('ok');
    expect(page.html).toBe(HTML);
    expect(Buffer.concat(page.raw!.body).equals(GZIPPED)).toBe(true);
    expect(page.wireBytes).toBe(GZIPPED.length);
  });

  it('keeps the byte cap: a body past it is skipped as before, with nothing kept', async () => {
    const page = await fetchPage(`${site.origin}/chunked`, { ...options, maxBytes: 2000 }, agent);
    expect(page.outcome).toBe('too-large');
    expect(page.raw).toBeUndefined();
    const coded = await fetchPage(`${site.origin}/gzip`, { ...options, maxBytes: 2000 }, agent);
    expect(coded.outcome).toBe('too-large');
    expect(coded.raw).toBeUndefined();
  });

  it('keeps nothing unless asked, nor for a page not read in full', async () => {
    expect((await fetchPage(`${site.origin}/chunked`, DEFAULT_FETCH_OPTIONS, agent)).raw).toBeUndefined();
    const missing = await fetchPage(`${site.origin}/missing`, options, agent);
    expect(missing.outcome).toBe('http-error');
    expect(missing.raw).toBeUndefined();
  });
});
