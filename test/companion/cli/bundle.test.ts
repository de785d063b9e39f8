/**
 * The command line's bundle (`scripts/build-cli.mjs`), which the bin runs when it is current:
 * built here into a folder of its own, it answers as the TypeScript does, through the commands'
 * lazily loaded chunks, the files read from the package's root and the tokenizer's wasm; its
 * parse threads' script parses as the TypeScript does.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLinkRules } from '../../../companion/crawl/link-rules.ts';
import { DEFAULT_TRAP_CAPS } from '../../../companion/crawl/traps.ts';
import { unpackPage } from '../../../companion/parse/packed-page.ts';
import type { ParseReply, ParseRequest } from '../../../companion/parse/parse-messages.ts';
import { parsePage } from '../../../companion/parse/parse-page.ts';
import { REPO_ROOT, runCli, type CliResult } from '../support/run-cli.ts';

const OUT = `dist/bundle-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'linkscent-bundle-'));

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['scripts/build-cli.mjs', '--outdir', OUT], { cwd: REPO_ROOT });
}, 60_000);
afterAll(() => {
  rmSync(join(REPO_ROOT, OUT), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** `linkscent <args>` from the bundle: its main(), exactly as the bin calls it. */
function runBundle(args: string[]): Promise<CliResult> {
  const main = new URL(`${OUT}/main.mjs`, `file://${REPO_ROOT}/`).href;
  const code = `const { main } = await import(${JSON.stringify(main)}); process.exit(await main(process.argv.slice(1)));`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', code, '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const exitCode = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: exitCode, stdout, stderr, errorLines: stderr.split('\n').filter((line) => line.trim() !== '') });
    });
  });
}

const fromSource = (args: string[]) => runCli(args, { env: { LINKSCENT_FROM_SOURCE: '1' } });

describe('the command line bundle', () => {
  it('answers --version, help and a bad flag as the TypeScript does', async () => {
    for (const args of [['--version'], ['--help'], ['crawl', '--help'], ['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', work, '--parse-threads', '99']]) {
      const [bundled, source] = await Promise.all([runBundle(args), fromSource(args)]);
      expect(bundled.code, args.join(' ')).toBe(source.code);
      expect(bundled.stdout).toBe(source.stdout);
      expect(bundled.errorLines).toEqual(source.errorLines);
    }
  });

  it("ships the parse threads' script, which parses a page as the TypeScript does", async () => {
    const code = readFileSync(join(REPO_ROOT, OUT, 'parse-thread.cjs'), 'utf8');
    const html = readFileSync(join(REPO_ROOT, 'test/fixtures/html/news-portal-zh.html'), 'utf8');
    const pageUrl = 'http://news.test/index.html';
    const bytes = new TextEncoder().encode(html);
    const rules = compileLinkRules({ traps: DEFAULT_TRAP_CAPS, scope: { scope: 'seed-domains', allow: [], deny: [] }, seeds: [pageUrl] });
    const thread = new Worker(code, { eval: true });
    try {
      const replies: ParseReply[] = [];
      const parsed = await new Promise<ParseReply>((resolve, reject) => {
        thread.on('error', reject);
        thread.on('message', (reply: ParseReply) => {
          replies.push(reply);
          if (!('ready' in reply)) return resolve(reply);
          // The page as bytes, with the crawl's link rules sent first, as a crawl sends them (parse-pool.ts).
          thread.postMessage({ rules: 7, source: rules.source } satisfies ParseRequest);
          thread.postMessage({ id: 1, html: { bytes, contentType: 'text/html' }, pageUrl, window: 80, links: { askedUrl: pageUrl, rules: 7 } } satisfies ParseRequest);
        });
      });
      expect(replies[0]).toEqual({ ready: true });
      if (!('parsed' in parsed)) throw new Error(`the thread answered ${JSON.stringify(parsed)}`);
      const here = parsePage({ html, pageUrl, window: 80, links: { askedUrl: pageUrl, rules } });
      expect(here.hosts!.some((host) => host !== null)).toBe(true);
      expect({ ...parsed.parsed, page: unpackPage(parsed.parsed.page) }).toEqual(here);
    } finally {
      await thread.terminate();
    }
  });

  it('trains the same model from the same links (jieba, the model file)', async () => {
    const labeled = join(work, 'labeled.jsonl');
    const links = [
      { url: 'http://a.test/calc/sum.html', pageUrl: 'http://a.test/', anchor: '电子表格求和函数', before: '', after: '', label: 1 },
      { url: 'http://a.test/calc/fmt.html', pageUrl: 'http://a.test/', anchor: '单元格格式', before: '工作表', after: '', label: 1 },
      { url: 'http://a.test/draw/line.html', pageUrl: 'http://a.test/', anchor: '绘制直线', before: '', after: '', label: 0 },
      { url: 'http://a.test/news/1.html', pageUrl: 'http://a.test/', anchor: '新闻公告', before: '', after: '', label: 0 },
    ];
    writeFileSync(labeled, links.map((link) => JSON.stringify(link)).join('\n') + '\n');
    const bundled = await runBundle(['train', labeled, '--out', join(work, 'bundled.json')]);
    const source = await fromSource(['train', labeled, '--out', join(work, 'source.json')]);
    expect(bundled.code).toBe(0);
    expect(bundled.stdout.replace('bundled.json', 'X')).toBe(source.stdout.replace('source.json', 'X'));
  });
});
