/**
 * WARC files and resume: what a killed run wrote after its last committed page (records no
 * transaction owns, a file begun for them) is trimmed when the crawl resumes, so every page is in
 * the files once; the resumed run goes on in a file of its own.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { serializePage } from '../../../companion/warc/warc-records.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readMinimalWarc } from '../../../tools/minimal-warc.ts';

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

let site: ScriptedSite;
let dir: string;

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => {
      const n = Number(/^\/p(\d+)$/.exec(path)?.[1] ?? (path === '/' ? 0 : Number.NaN));
      if (!Number.isInteger(n) || n > 6) return undefined;
      return page(n % 2 === 0 ? `topic page ${n}` : `other page ${n}`, `<p>page ${n}</p><a href="/p${n + 1}">next</a>`);
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'linkscent-warc-resume-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const files = (out: string) => readdirSync(join(out, 'warc')).filter((n) => n.endsWith('.warc.gz')).sort();

function crawl(out: string, maxPages: number, resume: boolean) {
  return runCrawl({
    seeds: resume ? [] : [`${site.origin}/`],
    outDir: out,
    maxPages,
    resume,
    strategy: createStrategy('bfs'),
    concurrency: 1,
    delayMs: 0,
    warc: { maxFileBytes: 1_000_000 },
    // A judge, so the metadata records carry relevance.
    pageJudge: (segments) => (segments.title.startsWith('topic') ? 1 : 0),
    log: () => {},
  });
}

describe('WARC output across a killed run', () => {
  it('trims records no transaction owns and files begun for them; every page once after the resume', async () => {
    const out = join(dir, 'killed');
    await crawl(out, 3, false);
    const [first] = files(out);
    expect(files(out)).toHaveLength(1);
    const committedSize = readFileSync(join(out, 'warc', first!)).length;

    // What a run killed between writing a page's records and its transaction leaves: the page's
    // records at the end of the file (the page, still queued, is fetched again on resume) and a
    // file begun for the next page.
    const orphan = await serializePage(
      { url: `${site.origin}/p3`, finalUrl: `${site.origin}/p3`, status: 200, depth: 3, parent: `${site.origin}/p2`, score: -3, fetchedAt: new Date().toISOString(), bytes: 1, contentType: 'text/html', outcome: 'ok' },
      { request: { method: 'GET', target: '/p3', headers: [['host', 'x']] }, response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html']] }, body: [Buffer.from('orphan')], sentAt: new Date().toISOString() },
    );
    for (const chunk of orphan.chunks) appendFileSync(join(out, 'warc', first!), chunk);
    writeFileSync(join(out, 'warc', 'linkscent-20990101000000-00099.warc.gz'), Buffer.concat(orphan.chunks));

    const summary = await crawl(out, 7, true);
    expect(summary.fetched).toBe(7);
    const names = files(out);
    expect(names).not.toContain('linkscent-20990101000000-00099.warc.gz');
    expect(readFileSync(join(out, 'warc', first!)).length).toBe(committedSize);
    expect(names).toHaveLength(2); // the resumed run writes a file of its own

    const records = names.flatMap((name) => readMinimalWarc(readFileSync(join(out, 'warc', name))));
    const responses = records.filter((r) => r.headers.get('warc-type') === 'response');
    const targets = responses.map((r) => r.headers.get('warc-target-uri'));
    expect(targets).toEqual(['/', '/p1', '/p2', '/p3', '/p4', '/p5', '/p6'].map((p) => `${site.origin}${p}`));
    expect(responses.every((r) => !r.payload.toString('utf8').includes('orphan'))).toBe(true);
    const relevance = records
      .filter((r) => r.headers.get('warc-type') === 'metadata')
      .map((r) => [r.headers.get('warc-target-uri')!.replace(site.origin, ''), r.headers.get('linkscent-relevance')]);
    expect(relevance).toEqual([['/', '1'], ['/p1', '0'], ['/p2', '1'], ['/p3', '0'], ['/p4', '1'], ['/p5', '0'], ['/p6', '1']]);
  });
});
