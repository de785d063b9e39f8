/**
 * `linkscent crawl` through the real bin on the loopback 财经/体育 site: the nb strategy with a
 * model trained by `train`, pages.jsonl in fetch order, a page classifier's harvest estimate,
 * and a resumed crawl.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/run-cli.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

interface PageLine {
  url: string;
  status: number;
  depth: number;
  parent: string | null;
  score: number;
  fetchedAt: string;
  relevance?: number;
}

let site: TopicSite;
let dir: string;
let model: string;

function pagesOf(outDir: string): PageLine[] {
  return readFileSync(join(outDir, 'pages.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PageLine);
}

beforeAll(async () => {
  site = await startTopicSite();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-crawl-'));
  const labeled = join(dir, 'labeled.jsonl');
  model = join(dir, 'model.json');
  const collected = await runCli(['collect', `${site.origin}/`, '--positive', `${site.origin}/finance/*`, '--max-pages', '30', '--out', labeled, '--delay-ms', '0']);
  expect(collected.code, collected.stderr).toBe(0);
  const trained = await runCli(['train', labeled, '--out', model]);
  expect(trained.code, trained.stderr).toBe(0);
});
afterAll(() => site?.close());

describe('linkscent crawl', () => {
  it('--strategy nb writes pages.jsonl in fetch order and goes for the finance pages first', async () => {
    const out = join(dir, 'nb');
    const result = await runCli(['crawl', `${site.origin}/`, '--model', model, '--strategy', 'nb', '--max-pages', '12', '--out', out, '--delay-ms', '0', '--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    // The model carries its topic's patterns, so pages are judged by them and the harvest shows.
    expect(result.stdout.trim()).toMatch(/^crawl: 12 pages this run \(12 in all\) in [\d.]+ s, [\d.]+ pages\/s, 0 errors, harvest [\d.]+ \(\d+\/\d+ judged relevant\); \d+ queued, stopped by max-pages → /);
    const pages = pagesOf(out);
    expect(pages).toHaveLength(12);
    for (const page of pages) {
      for (const key of ['url', 'status', 'depth', 'parent', 'score', 'fetchedAt']) expect(page).toHaveProperty(key);
      expect(page.status).toBe(200);
    }
    expect(pages[0]).toMatchObject({ url: `${site.origin}/`, depth: 0, parent: null });
    // Fetch order: every page's parent was fetched before it, and fetch times never go back.
    pages.forEach((page, i) => {
      if (i > 0) expect(pages.slice(0, i).map((p) => p.url)).toContain(page.parent);
      if (i > 0) expect(Date.parse(page.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(pages[i - 1]!.fetchedAt));
    });
    // Focus: of the 11 pages after the home page, the model picks the finance side.
    const finance = pages.filter((p) => p.url.includes('/finance/')).length;
    const sports = pages.filter((p) => p.url.includes('/sports/')).length;
    expect(finance).toBeGreaterThanOrEqual(9);
    expect(sports).toBeLessThanOrEqual(1);
  });

  it('--page-model: train --pages, then every page carries a relevance and the summary a harvest rate', async () => {
    const pagesFile = join(dir, 'pages-labeled.jsonl');
    // Half by URL (fetched), half with their HTML inline: both forms of the training file.
    // Every page of the site: the finance side positive, sports and the neutral pages negative.
    const lines = site.pages.map((page, i) => {
      const url = `${site.origin}${page.path}`;
      const label = page.topic === 'finance' ? 1 : 0;
      return JSON.stringify(i % 2 === 0 ? { url, label } : { url, html: site.html(page.path), label });
    });
    writeFileSync(pagesFile, `${lines.join('\n')}\n`);
    const pageModel = join(dir, 'page-model.json');
    const trained = await runCli(['train', '--pages', pagesFile, '--out', pageModel, '--top-k', '300', '--delay-ms', '0']);
    expect(trained.code, trained.stderr).toBe(0);
    expect(trained.stdout.trim()).toMatch(/^train: page classifier: 29 pages \(13 positive, 16 negative\), 300 features kept by information gain of \d+, multinomial → /);
    expect(JSON.parse(readFileSync(pageModel, 'utf8'))).toMatchObject({ kind: 'linkscent-page-model', version: 1 });

    const out = join(dir, 'judged');
    const result = await runCli(['crawl', `${site.origin}/`, '--strategy', 'bfs', '--page-model', pageModel, '--max-pages', '29', '--out', out, '--delay-ms', '0']);
    expect(result.code, result.stderr).toBe(0);
    const pages = pagesOf(out);
    expect(pages).toHaveLength(29);
    for (const page of pages) {
      expect(page.relevance).toBeGreaterThanOrEqual(0);
      expect(page.relevance).toBeLessThanOrEqual(1);
      if (page.url.includes('/finance/')) expect(page.relevance).toBeGreaterThan(0.5);
      else expect(page.relevance).toBeLessThan(0.5);
    }
    // bfs over the whole site: 13 finance pages of 29.
    expect(result.stdout).toMatch(/harvest 0\.448 \(13\/29 judged relevant\)/);
  });

  it('--resume continues a stopped crawl up to the new --max-pages', async () => {
    const out = join(dir, 'resumed');
    const first = await runCli(['crawl', `${site.origin}/`, '--max-pages', '4', '--out', out, '--delay-ms', '0']);
    expect(first.code, first.stderr).toBe(0);
    expect(pagesOf(out)).toHaveLength(4);
    const second = await runCli(['crawl', '--resume', '--max-pages', '9', '--out', out, '--delay-ms', '0']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^crawl: 5 pages this run \(9 in all\)/);
    const pages = pagesOf(out);
    expect(new Set(pages.map((p) => p.url)).size).toBe(9);
  });

  it('Ctrl-C stops cleanly with exit 130, and --resume finishes the crawl without refetching', async () => {
    const out = join(dir, 'interrupted');
    const running = startCli(['crawl', `${site.origin}/`, '--max-pages', '12', '--out', out, '--delay-ms', '150', '--concurrency', '1']);
    // Wait for a few pages, then interrupt.
    const pagesFile = join(out, 'pages.jsonl');
    for (let i = 0; i < 200 && !(existsSync(pagesFile) && readFileSync(pagesFile, 'utf8').split('\n').length > 3); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    running.child.kill('SIGINT');
    const stopped = await running.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stdout).toMatch(/stopped by aborted/);
    const before = pagesOf(out);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(12);
    const resumed = await runCli(['crawl', '--resume', '--max-pages', '12', '--out', out, '--delay-ms', '0']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = pagesOf(out);
    expect(after).toHaveLength(12);
    expect(new Set(after.map((p) => p.url)).size).toBe(12);
    expect(after.slice(0, before.length)).toEqual(before);
  });

  it('a corrupt page model is one line, exit 1', async () => {
    const bad = join(dir, 'bad-page-model.json');
    writeFileSync(bad, JSON.stringify({ kind: 'something-else' }));
    const result = await runCli(['crawl', `${site.origin}/`, '--page-model', bad, '--max-pages', '2', '--out', join(dir, 'never')]);
    expect(result.code).toBe(1);
    expect(result.errorLines).toHaveLength(1);
    expect(result.errorLines[0]).toMatch(/^linkscent crawl: .*bad-page-model\.json: not a page model/);
  });
});
