/**
 * `linkscent crawl --warc` on a loopback site, read back by webrecorder's warcio and by the
 * minimal reader of our own (`tools/minimal-warc.ts`): a warcinfo record opens every file,
 * files roll by size, every page is there once (request + response + metadata for a page read in
 * full, metadata alone for the others), bodies as received (de-chunked, gzip kept), digests right.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readMinimalWarc, type MinimalRecord } from '../../../tools/minimal-warc.ts';
import { runCli } from '../support/run-cli.ts';

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const ARTICLE = page('长文', `<nav><a href="/">首页</a> <a href="/b">B</a></nav><p>${'焦点爬虫把网页原样存档。'.repeat(300)}</p>`);
const GZIPPED = gzipSync(Buffer.from(page('压缩', '<p>gzip 页面的正文</p><a href="/b">B</a>')));

let site: ScriptedSite;
let dir: string;

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => {
      switch (path) {
        case '/': return page('Home', '<a href="/article">article</a> <a href="/gz">gz</a> <a href="/b">b</a> <a href="/missing">missing</a>');
        case '/article': return { body: ARTICLE, pieces: 700, headers: [['Content-Type', 'text/html; charset=utf-8'], ['Set-Cookie', 'a=1'], ['X-Note', 'first'], ['Set-Cookie', 'b=2'], ['WARC-Type', 'a server may send anything'], ['WARC-Type', 'twice']] };
        case '/gz': return { body: GZIPPED, headers: [['Content-Type', 'text/html; charset=utf-8'], ['Content-Encoding', 'gzip'], ['Content-Length', String(GZIPPED.length)]] };
        case '/b': return page('B', '<p>plain page B</p><a href="/">home</a>');
        default: return undefined;
      }
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'linkscent-warc-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

interface PageLine { url: string; outcome: string; score: number; relevance?: number }

function pagesOf(out: string): PageLine[] {
  return readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as PageLine);
}

function warcFilesOf(out: string): string[] {
  return readdirSync(join(out, 'warc')).filter((name) => name.endsWith('.warc.gz')).sort().map((name) => join(out, 'warc', name));
}

describe('crawl --warc', () => {
  let out: string;
  let files: string[];
  let minimal: MinimalRecord[][];

  beforeAll(async () => {
    out = join(dir, 'crawl');
    // Small files: every page's records start a new file after the first page.
    const result = await runCli(['crawl', `${site.origin}/`, '--max-pages', '10', '--out', out, '--delay-ms', '0', '--warc', '--warc-max-bytes', '3000']);
    expect(result.code, result.stderr).toBe(0);
    files = warcFilesOf(out);
    minimal = files.map((file) => readMinimalWarc(readFileSync(file)));
  });

  it('rolls files by size, each opened by a warcinfo record, one record per gzip member', () => {
    expect(files.length).toBeGreaterThan(1);
    for (const [i, records] of minimal.entries()) {
      expect(records[0]!.headers.get('warc-type')).toBe('warcinfo');
      expect(records[0]!.headers.get('warc-filename')).toBe(files[i]!.split('/').at(-1));
      expect(records[0]!.block.toString('utf8')).toMatch(/format: WARC File Format 1\.1\r\n/);
      expect(records.slice(1).every((r) => r.headers.get('warc-type') !== 'warcinfo')).toBe(true);
    }
  });

  it('holds every page once: request, response and metadata when read in full, metadata alone otherwise', () => {
    const pages = pagesOf(out);
    const records = minimal.flat();
    const ofType = (type: string) => records.filter((r) => r.headers.get('warc-type') === type).map((r) => r.headers.get('warc-target-uri'));
    const ok = pages.filter((p) => p.outcome === 'ok').map((p) => p.url);
    expect(ok.sort()).toEqual([`${site.origin}/`, `${site.origin}/article`, `${site.origin}/b`, `${site.origin}/gz`].sort());
    expect(ofType('response').sort()).toEqual(ok.sort());
    expect(ofType('request').sort()).toEqual(ok.sort());
    expect(ofType('metadata').sort()).toEqual(pages.map((p) => p.url).sort());
    // The request points at its response, the metadata at both.
    for (const response of records.filter((r) => r.headers.get('warc-type') === 'response')) {
      const id = response.headers.get('warc-record-id');
      expect(records.filter((r) => r.headers.get('warc-concurrent-to') === id).map((r) => r.headers.get('warc-type')).sort()).toEqual(['metadata', 'request']);
    }
  });

  it('keeps the bytes as received: de-chunked, gzip still applied, headers in order, the request as the server saw it', () => {
    const records = minimal.flat();
    const response = (path: string) => records.find((r) => r.headers.get('warc-type') === 'response' && r.headers.get('warc-target-uri') === `${site.origin}${path}`)!;
    expect(response('/article').payload.toString('utf8')).toBe(ARTICLE);
    expect(response('/gz').payload.equals(GZIPPED)).toBe(true);
    const httpHead = response('/article').block.subarray(0, response('/article').block.indexOf('\r\n\r\n')).toString('latin1').split('\r\n');
    expect(httpHead[0]).toBe('HTTP/1.1 200 OK');
    expect(httpHead.slice(1, 7)).toEqual(['Content-Type: text/html; charset=utf-8', 'Set-Cookie: a=1', 'X-Note: first', 'Set-Cookie: b=2', 'WARC-Type: a server may send anything', 'WARC-Type: twice']);
    // The body is no longer chunked, so the header says what the server did under another name.
    expect(httpHead).toContain('X-Crawler-Transfer-Encoding: chunked');
    expect(httpHead.some((line) => /^transfer-encoding:/i.test(line))).toBe(false);
    // The payload digest is of the stored body, checked here with node:crypto.
    expect(response('/gz').headers.get('warc-payload-digest')).toBe(`sha256:${createHash('sha256').update(GZIPPED).digest('hex')}`);
    const request = records.find((r) => r.headers.get('warc-type') === 'request' && r.headers.get('warc-target-uri') === `${site.origin}/article`)!;
    const sent = request.block.toString('latin1').split('\r\n\r\n')[0]!.split('\r\n');
    const seen = site.requests.find((r) => r.path === '/article')!.rawHeaders;
    expect(sent[0]).toBe('GET /article HTTP/1.1');
    expect(sent.slice(1)).toEqual(Array.from({ length: seen.length / 2 }, (_, i) => `${seen[2 * i]}: ${seen[2 * i + 1]}`));
  });

  it('gives each page a metadata record with its score and outcome', () => {
    const metadata = minimal.flat().filter((r) => r.headers.get('warc-type') === 'metadata');
    const missing = metadata.find((r) => r.headers.get('warc-target-uri') === `${site.origin}/missing`)!;
    expect(missing.headers.get('linkscent-outcome')).toBe('http-error');
    expect(missing.block.toString('utf8')).toMatch(/^outcome: http-error\r\nstatus: 404\r\nscore: -?[\d.]+\r\n/);
    const home = metadata.find((r) => r.headers.get('warc-target-uri') === `${site.origin}/`)!;
    expect(home.headers.get('linkscent-score')).toBe('0'); // bfs scores −depth
    expect(home.block.toString('utf8')).toMatch(/rank: 1\r\n/);
  });

  it('reads back with webrecorder\'s warcio: the same records, contents decoded, digests its own', async () => {
    const seen: string[] = [];
    for (const file of files) {
      const parser = new WARCParser([readFileSync(file)]);
      for await (const record of parser) {
        seen.push(`${record.warcType} ${record.warcTargetURI ?? ''}`);
        if (record.warcType === 'response' && record.warcTargetURI === `${site.origin}/gz`) {
          expect(await record.contentText()).toContain('gzip 页面的正文');
        } else if (record.warcType === 'response' && record.warcTargetURI === `${site.origin}/article`) {
          expect(record.httpHeaders?.statusCode).toBe(200);
          expect(await record.contentText()).toBe(ARTICLE);
        } else {
          await record.readFully();
        }
      }
    }
    const mine = minimal.flat().map((r) => `${r.headers.get('warc-type')} ${r.headers.get('warc-target-uri') ?? ''}`);
    expect(seen).toEqual(mine);
  });
});
