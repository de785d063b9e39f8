/**
 * `linkscent export` through the real bin: a crawl run with --store-text becomes a corpus in one
 * command, as JSON lines or as WARC conversion records (referring to the crawl's own WARC
 * responses when it wrote them, saying it holds text alone when it did not), and every way it
 * cannot is one line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readMinimalWarc } from '../../../tools/minimal-warc.ts';
import { runCli } from '../support/run-cli.ts';

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

let site: ScriptedSite;
let dir: string;
let textOnly: string;
let withWarc: string;
let bare: string;

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => {
      if (path === '/') return page('首页', '<p>摄影爱好者的网站。</p><a href="/a">光圈</a> <a href="/b">快门</a> <a href="/img">图</a>');
      if (path === '/a') return page('光圈', '<nav><a href="/">首页</a></nav><p>光圈决定进光量与景深。</p>');
      if (path === '/b') return page('快门', '<p>快门速度决定曝光时间。</p>');
      return undefined;
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'linkscent-export-'));
  textOnly = join(dir, 'text-only');
  withWarc = join(dir, 'with-warc');
  bare = join(dir, 'bare');
  const common = ['--max-pages', '10', '--delay-ms', '0', '--concurrency', '1'];
  for (const [out, flags] of [[textOnly, ['--store-text']], [withWarc, ['--store-text', '--warc']], [bare, []]] as const) {
    const result = await runCli(['crawl', `${site.origin}/`, '--out', out, ...common, ...flags]);
    expect(result.code, result.stderr).toBe(0);
  }
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkscent export', () => {
  it('--format jsonl: one line per page read in full, in fetch order, to stdout', async () => {
    const result = await runCli(['export', textOnly, '--format', 'jsonl']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.url)).toEqual([`${site.origin}/`, `${site.origin}/a`, `${site.origin}/b`]);
    expect(lines[1]).toEqual({ url: `${site.origin}/a`, title: '光圈', text: '光圈决定进光量与景深。', score: -1, relevance: null, fetchedAt: expect.any(String) });
    expect(result.errorLines).toEqual([`export: 3 pages → stdout`]);
  });

  it('--format warc without the crawl\'s WARC files: conversion records of the text, and it says that is all', async () => {
    const out = join(dir, 'text-only.warc.gz');
    const result = await runCli(['export', textOnly, '--format', 'warc', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.errorLines[0]).toMatch(/extracted page text only.*the crawl wrote no WARC files \(crawl --warc\)/);
    const records = readMinimalWarc(readFileSync(out));
    expect(records[0]!.headers.get('warc-type')).toBe('warcinfo');
    expect(records[0]!.block.toString('utf8')).toMatch(/description: extracted page text only/);
    const conversions = records.slice(1);
    expect(conversions.map((r) => r.headers.get('warc-type'))).toEqual(['conversion', 'conversion', 'conversion']);
    expect(conversions[2]!.block.toString('utf8')).toBe('快门\n\n快门速度决定曝光时间。');
    expect(conversions.every((r) => !r.headers.has('warc-refers-to'))).toBe(true);
  });

  it('--format warc with the crawl\'s WARC files: each conversion refers to its page\'s response record', async () => {
    const out = join(dir, 'with-warc.warc.gz');
    const result = await runCli(['export', withWarc, '--format', 'warc', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.errorLines[0]).toMatch(/referring to its page's response record in the crawl's 1 WARC file/);
    const crawlWarc = readFileSync(join(withWarc, 'warc', readdirWarc(withWarc)));
    const responses = new Map(readMinimalWarc(crawlWarc).filter((r) => r.headers.get('warc-type') === 'response').map((r) => [r.headers.get('warc-record-id'), r.headers.get('warc-target-uri')]));
    const seen: [string, string][] = [];
    for await (const record of new WARCParser([readFileSync(out)])) {
      if (record.warcType !== 'conversion') continue;
      seen.push([record.warcTargetURI!, responses.get(record.warcHeader('WARC-Refers-To')!)!]);
      expect(await record.contentText()).toContain('\n\n');
    }
    expect(seen).toEqual(['/', '/a', '/b'].map((p) => [`${site.origin}${p}`, `${site.origin}${p}`]));
  });

  it('says in one line what is wrong: no text kept, no crawl, warc to a terminal, a bad format', async () => {
    const noText = await runCli(['export', bare]);
    expect(noText.code).toBe(1);
    expect(noText.errorLines).toEqual([`linkscent export: ${bare} kept no page text: crawl with --store-text (a --resume with --store-text keeps the text of the pages fetched from then on)`]);
    const noCrawl = await runCli(['export', dir]);
    expect(noCrawl.code).toBe(1);
    expect(noCrawl.errorLines).toEqual([`linkscent export: ${dir} holds no crawl (no crawl.sqlite); give the --out directory of a linkscent crawl`]);
    const toTerminal = await runCli(['export', textOnly, '--format', 'warc']);
    expect(toTerminal.code).toBe(2);
    expect(toTerminal.errorLines).toEqual(['linkscent export: --format warc needs --out FILE (a WARC file is not for a terminal)']);
    const badFormat = await runCli(['export', textOnly, '--format', 'csv']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.errorLines).toEqual(['linkscent export: --format must be one of jsonl, warc, got "csv"']);
  });
});

function readdirWarc(crawlDir: string): string {
  return readdirSync(join(crawlDir, 'warc')).filter((name) => name.endsWith('.warc.gz'))[0]!;
}
