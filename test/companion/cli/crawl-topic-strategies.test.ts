/**
 * `linkscent crawl --strategy lpe` (seed 002) and `--strategy best-first-extracted` (seed 004)
 * through the real bin on the loopback 财经/体育 site: each reaches more finance pages than
 * breadth-first within the same budget, with the flags the seeds bench passes; their bad usage
 * and a bad knowledge-base file are one line each.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

const BUDGET = 12;
let site: TopicSite;
let dir: string;
let bfsShare: number;

/** Share of the crawl's pages under /finance/. */
function financeShare(outDir: string): number {
  const urls = readFileSync(join(outDir, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { url: string }).url);
  expect(urls).toHaveLength(BUDGET);
  return urls.filter((url) => new URL(url).pathname.startsWith('/finance/')).length / urls.length;
}

async function crawl(name: string, ...flags: string[]): Promise<number> {
  const out = join(dir, name);
  const result = await runCli(['crawl', `${site.origin}/`, '--max-pages', String(BUDGET), '--out', out, '--delay-ms', '0', '--concurrency', '1', ...flags]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(new RegExp(`^crawl: ${BUDGET} pages this run`));
  return financeShare(out);
}

beforeAll(async () => {
  site = await startTopicSite();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-topic-strategies-'));
  bfsShare = await crawl('bfs', '--strategy', 'bfs');
});
afterAll(() => site?.close());

describe('linkscent crawl with the seed 002 and 004 strategies', () => {
  it('--strategy lpe reaches more finance pages than bfs', async () => {
    const share = await crawl('lpe', '--strategy', 'lpe', '--topic', '财经 股市 基金 银行 利率 债券 汇率', '--lambda', '0.5', '--block-threshold', '0.2');
    console.info(`finance share of ${BUDGET} pages: bfs ${bfsShare.toFixed(2)}, lpe ${share.toFixed(2)}`);
    expect(share).toBeGreaterThan(bfsShare + 0.2);
  });

  it('--strategy best-first-extracted with a knowledge base reaches more finance pages than bfs', async () => {
    const kb = join(dir, 'kb.txt');
    writeFileSync(kb, '# 财经的相关词\n财经: 股市, 基金, 银行, 利率, 债券, 汇率, 央行\n');
    const share = await crawl('bfe', '--strategy', 'best-first-extracted', '--topic', '财经', '--knowledge-base', kb, '--alpha', '0.6');
    console.info(`finance share of ${BUDGET} pages: bfs ${bfsShare.toFixed(2)}, best-first-extracted ${share.toFixed(2)}`);
    expect(share).toBeGreaterThan(bfsShare + 0.2);
  });

  it('a bad knowledge-base line is one failure line naming the file and line', async () => {
    const kb = join(dir, 'bad-kb.txt');
    writeFileSync(kb, '财经: 股市\n: 基金\n');
    const result = await runCli(['crawl', `${site.origin}/`, '--strategy', 'best-first-extracted', '--topic', '财经', '--knowledge-base', kb, '--max-pages', '2', '--out', join(dir, 'never')]);
    expect(result.code).toBe(1);
    expect(result.errorLines).toEqual([`linkscent crawl: ${kb}:2: no term before the colon`]);
  });

  it('each flag goes with its strategies only', async () => {
    const usage = async (flags: string[], message: string) => {
      const result = await runCli(['crawl', `${site.origin}/`, '--max-pages', '2', '--out', join(dir, 'never'), ...flags]);
      expect(result.code).toBe(2);
      expect(result.errorLines).toEqual([`linkscent crawl: ${message}`]);
    };
    await usage(['--strategy', 'lpe'], '--strategy lpe needs --topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME');
    await usage(['--strategy', 'best-first', '--topic', '财经', '--lambda', '0.3'], '--lambda is for --strategy lpe, not best-first');
    await usage(['--strategy', 'lpe', '--topic', '财经', '--knowledge-base', 'kb.txt'], '--knowledge-base is for --strategy best-first-extracted, not lpe');
    await usage(['--strategy', 'lpe', '--topic', '财经', '--block-threshold', '2'], '--block-threshold must be a number from 0 to 1, got "2"');
  });
});
