/**
 * `linkscent train --pages --method …` and `linkscent eval --pages` through the real bin, on the
 * loopback 财经/体育 site's pages given inline: P, R and F of a saved page model (seed 004
 * §4.5.2), and the three methods side by side on a split.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

let site: TopicSite;
let dir: string;
let pagesFile: string;

beforeAll(async () => {
  site = await startTopicSite();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-eval-pages-'));
  pagesFile = join(dir, 'pages.jsonl');
  const lines = site.pages.map((page) => JSON.stringify({ url: `${site.origin}${page.path}`, html: site.html(page.path), label: page.topic === 'finance' ? 1 : 0 }));
  writeFileSync(pagesFile, `${lines.join('\n')}\n`);
});
afterAll(() => site?.close());

describe('linkscent eval --pages', () => {
  it('prints precision, recall and F1 of a page model trained with --method extracted and a knowledge base', async () => {
    const kb = join(dir, 'kb.txt');
    writeFileSync(kb, '财经: 股市, 基金, 银行\n');
    const model = join(dir, 'extracted.json');
    const trained = await runCli(['train', '--pages', pagesFile, '--out', model, '--method', 'extracted', '--knowledge-base', kb, '--top-k', '300']);
    expect(trained.code, trained.stderr).toBe(0);
    expect(trained.stdout).toMatch(/^train: page classifier \(extracted\): 29 pages \(13 positive, 16 negative\), \d+ features kept by information gain of \d+, multinomial → /);
    expect(JSON.parse(readFileSync(model, 'utf8'))).toMatchObject({ method: 'extracted', knowledgeBase: [{ term: '财经', related: ['股市', '基金', '银行'] }] });
    const result = await runCli(['eval', '--pages', pagesFile, '--page-model', model]);
    expect(result.code, result.stderr).toBe(0);
    // Measured on its own training pages: every finance page found; one of the 16 others (a
    // neutral page) taken for finance gives P = 13/14.
    const report = JSON.parse(result.stdout);
    expect(report).toEqual({ precision: 0.9286, recall: 1, f1: expect.any(Number), accuracy: 0.9655, n: 29 });
    expect(report.f1).toBeCloseTo((2 * (13 / 14) * 1) / (13 / 14 + 1), 4);
  });

  it('--split trains each method on the same part and measures it on the rest', async () => {
    const result = await runCli(['eval', '--pages', pagesFile, '--split', '0.6', '--seed', '3', '--top-k', '200']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    console.info(`eval --pages --split 0.6: ${result.stdout.trim()}`);
    expect(report).toMatchObject({ split: 0.6, seed: 3, train: 17, test: 12 });
    for (const method of ['zones', 'extracted', 'itfidf']) {
      expect(Object.keys(report[method])).toEqual(['precision', 'recall', 'f1', 'accuracy', 'n']);
      expect(report[method].n).toBe(12);
      expect(report[method].f1).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('bad usage is one line', async () => {
    const usage = async (args: string[], message: string) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.errorLines).toEqual([`linkscent ${args[0]}: ${message}`]);
    };
    await usage(['eval', '--pages', pagesFile], 'eval --pages needs --page-model FILE (evaluate a model) or --split F (train and test each method)');
    await usage(['eval', '--pages', pagesFile, '--model', 'm.json'], '--model is for link classifiers, not eval --pages');
    await usage(['eval', 'labeled.jsonl', '--page-model', 'p.json'], '--page-model is for eval --pages');
    await usage(['train', '--pages', pagesFile, '--out', join(dir, 'x.json'), '--knowledge-base', 'kb.txt'], '--knowledge-base is for --method extracted, not zones');
  });
});
