/**
 * `linkscent why` through the real bin on the loopback 财经/体育 site: an nb crawl's URL explained
 * by the link that gave it its best score, its rank when claimed, and its score taken apart with
 * the crawl's model (which, with nothing learned since, gives back the very score it was claimed
 * with); a seed, a bfs crawl, an unknown URL and a moved model each said so in one line.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhyReply } from '../../../shared/service-api/types.ts';
import { runCli } from '../support/run-cli.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

interface PageLine { url: string; parent: string | null; score: number; rank?: number; outcome: string }

let site: TopicSite;
let dir: string;
let model: string;
let nbOut: string;
let pages: PageLine[];

const pagesOf = (out: string): PageLine[] => readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as PageLine);

async function why(args: string[]): Promise<WhyReply> {
  const result = await runCli(['why', ...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as WhyReply;
}

beforeAll(async () => {
  site = await startTopicSite();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-why-'));
  const labeled = join(dir, 'labeled.jsonl');
  model = join(dir, 'model.json');
  expect((await runCli(['collect', `${site.origin}/`, '--positive', `${site.origin}/finance/*`, '--max-pages', '30', '--out', labeled, '--delay-ms', '0'])).code).toBe(0);
  expect((await runCli(['train', labeled, '--out', model])).code).toBe(0);
  nbOut = join(dir, 'nb');
  // Nothing learned during the crawl and no host budget: a URL's score now is the score it had.
  const crawled = await runCli(['crawl', `${site.origin}/`, '--model', model, '--max-pages', '10', '--out', nbOut, '--delay-ms', '0', '--concurrency', '1', '--no-online', '--no-host-budget', '--no-pattern-links']);
  expect(crawled.code, crawled.stderr).toBe(0);
  pages = pagesOf(nbOut);
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkscent why', () => {
  it('gives a fetched URL\'s best link, its rank when claimed, and its score taken apart back to the score it had', async () => {
    const target = pages.find((p) => p.url.includes('/finance/') && p.parent !== null)!;
    const reply = await why([target.url, '--out', nbOut]);
    expect(reply).toMatchObject({ url: target.url, state: 'done', strategy: 'nb', score: target.score, rank: target.rank, seed: false, page: { outcome: 'ok', status: 200 } });
    expect(reply.link!.parent).toBe(target.parent);
    expect(reply.link!.anchor).not.toBe('');
    const parts = reply.parts!;
    expect(parts.byPattern).toBe(false);
    expect(parts.future).not.toBeNull();
    expect(parts.levels!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(parts.value).toBeCloseTo(parts.immediate + (1 - parts.immediate) * parts.future!, 12);
    expect(parts.priority).toBeCloseTo(target.score, 12);
    expect(parts.top.length).toBeGreaterThan(0);
    expect(parts.top.every(({ feature }) => /^(a|c|lex|u|d):/.test(feature))).toBe(true);
  });

  it('prints the same for a person: link, rank, P(+), future value, features', async () => {
    const target = pages.find((p) => p.url.includes('/finance/') && p.parent !== null)!;
    const result = await runCli(['why', target.url, '--out', nbOut]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`claimed at rank ${target.rank} of the queue`);
    expect(result.stdout).toContain(`best link, depth 1: from ${target.parent}`);
    expect(result.stdout).toMatch(/immediate value P\(\+\) = [\d.]+; classifier log-odds -?[\d.]+/);
    expect(result.stdout).toMatch(/future value E\[γ\^d \| d ≥ 1\] = [\d.]+ \(γ 0\.5; P\(level\) 0: [\d.]+/);
    expect(result.stdout).toMatch(/top features \(log P\(f\|\+\)\/P\(f\|−\)\):\n\s+[+-][\d.]+ {2}[a-z]+:/);
  });

  it('gives pages.jsonl ranks that tell rows apart where the scores do not', () => {
    expect(pages.every((p) => p.rank !== undefined && p.rank >= 1)).toBe(true);
    expect(pages[0]!.rank).toBe(1);
  });

  it('explains a queued URL and a seed, and names an unknown URL in one line', async () => {
    const seed = await why([`${site.origin}/`, '--out', nbOut]);
    expect(seed).toMatchObject({ seed: true, rank: 1, partsNote: 'a seed: seeds are fetched first, whatever their score' });
    const unknown = await runCli(['why', `${site.origin}/nowhere`, '--out', nbOut]);
    expect(unknown.code).toBe(1);
    expect(unknown.errorLines).toEqual([`linkscent why: ${site.origin}/nowhere is not a URL of this crawl (never found on its pages)`]);
  });

  it('says when the model file has moved, and takes --model instead', async () => {
    const target = pages.find((p) => p.parent !== null)!;
    const moved = join(dir, 'moved.json');
    renameSync(model, moved);
    try {
      const lost = await why([target.url, '--out', nbOut]);
      expect(lost.parts).toBeUndefined();
      expect(lost.partsNote).toMatch(/^cannot take the score apart: cannot read model file .*model\.json: ENOENT/);
      const found = await why([target.url, '--out', nbOut, '--model', moved]);
      expect(found.parts!.priority).toBeCloseTo(target.score, 12);
    } finally {
      renameSync(moved, model);
    }
  });

  it('has no parts to give for a bfs crawl, and says why', async () => {
    const out = join(dir, 'bfs');
    expect((await runCli(['crawl', `${site.origin}/`, '--max-pages', '3', '--out', out, '--delay-ms', '0'])).code).toBe(0);
    const second = pagesOf(out)[1]!;
    const reply = await why([second.url, '--out', out]);
    expect(reply).toMatchObject({ strategy: 'bfs', score: -1, link: { parent: `${site.origin}/` } });
    expect(reply.partsNote).toMatch(/^a bfs crawl has no model/);
  });
});
