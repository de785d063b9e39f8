/**
 * Seed 003's strategies end to end: `linkscent crawl --strategy rw|ipagerank|pagerank` through the
 * real bin on the loopback 财经/体育/娱乐 site (`support/site-server.ts`), the topic chosen from a
 * topic directory of sample text (no keyword of the site's anchors given by hand), counted from
 * the server's side: finance pages among the first pages it served the crawl.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/run-cli.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';

const BUDGET = 40;
let site: SiteServer;
let dir: string;
let topics: string;

/** A finance topic described as a user would, in sentences: none is an anchor of the site. */
const SAMPLE = [
  '股市行情受到央行货币政策的影响，利率下调通常利好股市。',
  '投资者关注基金和债券的收益率，股市上涨时基金净值随之上涨。',
  '银行理财产品的收益率与债券市场利率相关。',
  '上市公司发布财报后股价波动，投资者调整基金和股票配置。',
].join('\n');

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 40 });
  dir = mkdtempSync(join(tmpdir(), 'linkscent-seed-003-'));
  topics = join(dir, 'topics');
  mkdirSync(join(topics, '经济', '财经'), { recursive: true });
  writeFileSync(join(topics, '经济', '财经', 'sample.txt'), SAMPLE);
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Crawls from the home page; the finance share of the pages the server sent (robots.txt left out). */
async function crawl(name: string, ...args: string[]): Promise<{ result: CliResult; harvest: number; served: number }> {
  const before = site.requests.length;
  const result = await runCli(['crawl', `${site.origin}/`, ...args, '--max-pages', String(BUDGET), '--out', join(dir, name), '--delay-ms', '0', '--concurrency', '1']);
  const served = site.requests.slice(before).filter((path) => path !== '/robots.txt');
  return { result, harvest: served.filter((path) => path.startsWith('/finance/')).length / served.length, served: served.length };
}

describe('linkscent crawl, seed 003 (SkyReach)', () => {
  it('ipagerank and rw from a topic directory beat bfs; pagerank crawls its budget', async () => {
    const topic = ['--topic-dir', topics, '--topic-name', '经济/财经'];
    const bfs = await crawl('bfs', '--strategy', 'bfs');
    const ipr = await crawl('ipagerank', '--strategy', 'ipagerank', ...topic);
    const rw = await crawl('rw', '--strategy', 'rw', ...topic);
    const pr = await crawl('pagerank', '--strategy', 'pagerank');
    for (const run of [bfs, ipr, rw, pr]) {
      expect(run.result.code, run.result.stderr).toBe(0);
      expect(run.served).toBe(BUDGET);
    }
    expect(ipr.result.stderr).toContain("ipagerank: word similarity from co-occurrence in the topic's text");
    console.info(`finance share of ${BUDGET} pages served: bfs ${bfs.harvest.toFixed(3)}, pagerank ${pr.harvest.toFixed(3)}, rw ${rw.harvest.toFixed(3)}, ipagerank ${ipr.harvest.toFixed(3)}`);
    expect(ipr.harvest).toBeGreaterThan(bfs.harvest + 0.2);
    expect(rw.harvest).toBeGreaterThan(bfs.harvest + 0.2);
  });

  it('best-first takes its topic from the topic directory too', async () => {
    const best = await crawl('best-first', '--strategy', 'best-first', '--topic-dir', topics, '--topic-name', '经济/财经');
    expect(best.result.code, best.result.stderr).toBe(0);
    expect(best.harvest).toBeGreaterThan(0.5);
  });

  it('a synonym list is read and said so; one with a bad line fails in one line naming file and line; flags of other strategies are refused', async () => {
    const synonyms = join(dir, 'syn.txt');
    writeFileSync(synonyms, '股票 股市\n0.7: 基金\n');
    const good = join(dir, 'good.txt');
    writeFileSync(good, '# finance\n股市 股票\n0.7: 基金 理财\n');
    const listed = await crawl('listed', '--strategy', 'rw', '--topic', '股票 基金', '--synonyms', good);
    expect(listed.result.code, listed.result.stderr).toBe(0);
    expect(listed.result.stderr).toContain(`rw: word similarity from --synonyms ${good} (2 groups)`);
    const bad = await runCli(['crawl', `${site.origin}/`, '--strategy', 'rw', '--topic', '股票', '--synonyms', synonyms, '--max-pages', '5', '--out', join(dir, 'bad')]);
    expect(bad.code).toBe(1);
    expect(bad.errorLines).toEqual([`linkscent crawl: --synonyms ${synonyms}:2: a group needs at least two words`]);
    const wrong = await runCli(['crawl', `${site.origin}/`, '--strategy', 'bfs', '--synonyms', synonyms, '--max-pages', '5', '--out', join(dir, 'wrong')]);
    expect(wrong.code).toBe(2);
    expect(wrong.errorLines).toEqual(['linkscent crawl: --synonyms is for --strategy rw, ipagerank, not bfs']);
    const missing = await runCli(['crawl', `${site.origin}/`, '--strategy', 'ipagerank', '--topic-dir', topics, '--topic-name', '经济', '--max-pages', '5', '--out', join(dir, 'missing')]);
    expect(missing.code).toBe(1);
    expect(missing.errorLines).toEqual([`linkscent crawl: --topic-dir ${topics}: topic "经济" holds no sample text (*.txt); topics: 经济/财经 (1 in all)`]);
  });
});
