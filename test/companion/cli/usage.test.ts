/**
 * The command line's edges, through the real bin: help and version, and every kind of bad
 * input exits non-zero with exactly one stderr line that names what is wrong (STYLE.md 7).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkscent-usage-'));
});

/** Asserts a failure: the exit code, one stderr line, nothing on stdout. */
async function expectOneLineFailure(args: string[], code: number, pattern: RegExp): Promise<string> {
  const result = await runCli(args);
  expect(result.errorLines, result.stderr).toHaveLength(1);
  expect(result.errorLines[0]).toMatch(pattern);
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  return result.errorLines[0]!;
}

describe('linkscent: help and version', () => {
  it('--help lists every command and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['collect', 'train', 'eval', 'crawl', 'serve', 'export', 'why']) expect(result.stdout).toContain(`  ${command} `);
  });

  it('crawl --help lists --warc and --store-text with the text caps, and export and why have their own', async () => {
    const crawl = await runCli(['crawl', '--help']);
    expect(crawl.stdout).toMatch(/--warc +Write WARC 1\.1 files/);
    expect(crawl.stdout).toMatch(/--warc-max-bytes <N>.*\[default: 1000000000\]/);
    expect(crawl.stdout).toMatch(/--store-text .*title cut at 1000 characters, text at 100,000/);
    expect((await runCli(['export', '--help'])).stdout).toMatch(/--format <jsonl\|warc>.*\[default: jsonl\]/);
    expect((await runCli(['why', '--help'])).stdout).toMatch(/Usage:\n {2}linkscent why <url> --out DIR/);
  });

  it('crawl --help and collect --help state the address rule (issue 13: SSRF)', async () => {
    for (const command of ['crawl', 'collect']) {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Redirects obey --scope as links do.');
      expect(result.stdout).toMatch(/loopback\n\(127\.0\.0\.0\/8, ::1\) and private ones .* only\nwhen a seed is on one of that kind or an --allow pattern names the host/);
      expect(result.stdout).toContain('0.0.0.0 never');
    }
  });

  it("a command's --help lists its options with defaults, even beside a bad option", async () => {
    const result = await runCli(['crawl', '--bogus', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--max-pages <N>/);
    expect(result.stdout).toMatch(/--strategy <name>.*\[default: nb with --model, else bfs\]/);
    expect(result.stdout).toMatch(/--page-model <FILE>/);
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('linkscent: bad usage exits 2 with one line', () => {
  it('crawl --warc-max-bytes without --warc', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '1', '--out', join(dir, 'w'), '--warc-max-bytes', '100'], 2, /^linkscent crawl: --warc-max-bytes goes with --warc$/));
  it('why without --out', () => expectOneLineFailure(['why', 'http://127.0.0.1:9/'], 2, /^linkscent why: --out is required \(the crawl directory\)$/));

  it('no command', () => expectOneLineFailure([], 2, /^linkscent: missing command/));

  it('an unknown command', () => expectOneLineFailure(['crawwl'], 2, /^linkscent: unknown command "crawwl"; commands: collect, train/));

  it('a non-integer --max-pages names the flag and the value', async () => {
    const line = await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', 'ten', '--out', dir], 2, /^linkscent crawl: /);
    expect(line).toBe('linkscent crawl: --max-pages must be a positive integer, got "ten"');
  });

  it('zero and negative --max-pages', async () => {
    await expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--positive', 'x.org', '--max-pages', '0', '--out', 'x'], 2, /--max-pages must be a positive integer, got "0"/);
    await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--out', dir, '--max-pages=-3'], 2, /--max-pages must be a positive integer, got "-3"/);
  });

  // Issue 13, item 11: the crawler's bounds (crawl-limits.ts) are bad usage of the flag.
  it('--concurrency, --delay-ms and --max-pages past the crawler\'s bounds, and an over-long seed', async () => {
    await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', dir, '--concurrency', '100000'], 2, /^linkscent crawl: --concurrency must be at most 64, got "100000"$/);
    await expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--positive', 'x', '--max-pages', '5', '--out', 'x', '--delay-ms', '1000000000000'], 2, /^linkscent collect: --delay-ms must be at most 600000, got "1000000000000"$/);
    await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '99999999999', '--out', dir], 2, /^linkscent crawl: --max-pages must be at most 10000000, got "99999999999"$/);
    await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', dir, '--parse-threads', '17'], 2, /^linkscent crawl: --parse-threads must be at most 16, got "17"$/);
    await expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', dir, '--parse-threads=-1'], 2, /^linkscent crawl: --parse-threads must be a non-negative integer, got "-1"$/);
    await expectOneLineFailure(['crawl', `http://127.0.0.1:9/${'a'.repeat(9000)}`, '--max-pages', '5', '--out', dir], 2, /^linkscent crawl: seed "http:\/\/127\.0\.0\.1:9\/a+…" is 9019 characters long, at most 8192$/);
  });

  it('an unknown option names it and the valid ones', () =>
    expectOneLineFailure(
      ['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', dir, '--bogus'],
      2,
      /^linkscent crawl: unknown option --bogus; valid options: --model, .*--max-pages.*--help$/,
    ));

  it('a missing --out', () =>
    expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--positive', 'a.org', '--max-pages', '5'], 2, /^linkscent collect: --out is required$/));

  it('a missing --positive', () =>
    expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', 'x.jsonl'], 2, /^linkscent collect: --positive is required/));

  it('a bad URL pattern, naming its flag', async () => {
    await expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--positive', '  ', '--max-pages', '5', '--out', 'x.jsonl'], 2, /^linkscent collect: --positive "  ": URL pattern is empty/);
    await expectOneLineFailure(['train', 'a.jsonl', '--out', 'm.json', '--positive', 'a.org', '--negative', 'exa mple.org'], 2, /^linkscent train: --negative "exa mple.org": URL pattern is not a valid host name/);
  });

  it('an option without its value', () =>
    expectOneLineFailure(['train', 'a.jsonl', '--out'], 2, /^linkscent train: --out needs a value$/));

  it('a single-valued option given twice', () =>
    expectOneLineFailure(['train', 'a.jsonl', '--out', 'a.json', '--out', 'b.json'], 2, /^linkscent train: --out given more than once$/));

  it('a bad seed URL', () =>
    expectOneLineFailure(['crawl', 'not-a-url', '--max-pages', '5', '--out', dir], 2, /^linkscent crawl: seed "not-a-url" is not an absolute http\(s\) URL$/));

  it('--strategy nb without --model', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--strategy', 'nb', '--max-pages', '5', '--out', dir], 2, /^linkscent crawl: --strategy nb needs --model FILE/));

  it('an unknown strategy', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--strategy', 'dfs', '--max-pages', '5', '--out', dir], 2, /--strategy must be one of nb, bfs, best-first, lpe, best-first-extracted, rw, ipagerank, pagerank, got "dfs"/));

  it('best-first without a topic', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--strategy', 'best-first', '--max-pages', '5', '--out', dir], 2, /best-first needs --topic/));

  it('--features outside 1|2 and a bad --form', async () => {
    await expectOneLineFailure(['train', 'a.jsonl', '--out', 'm.json', '--features', '3'], 2, /^linkscent train: --features must be one of 1, 2, got "3"$/);
    await expectOneLineFailure(['train', 'a.jsonl', '--out', 'm.json', '--form', 'gaussian'], 2, /--form must be one of bernoulli, multinomial, mixed, got "gaussian"/);
  });

  it('--url-tokens with --no-url-tokens', () =>
    expectOneLineFailure(['train', 'a.jsonl', '--out', 'm.json', '--url-tokens', '--no-url-tokens'], 2, /^linkscent train: --url-tokens and --no-url-tokens contradict each other; give one$/));

  it('eval: --split outside (0, 1), and neither --model nor --split', async () => {
    await expectOneLineFailure(['eval', 'a.jsonl', '--split', '1.5'], 2, /^linkscent eval: --split must be a fraction between 0 and 1 \(exclusive\), got "1.5"$/);
    await expectOneLineFailure(['eval', 'a.jsonl'], 2, /^linkscent eval: give --model FILE \(evaluate a model\) or --split F/);
    await expectOneLineFailure(['eval', 'a.jsonl', 'b.jsonl', '--split', '0.7'], 2, /takes one <labeled.jsonl>, got an extra "b.jsonl"/);
  });
});

describe('linkscent: runtime failures exit 1 with one line', () => {
  it('a labeled file that does not exist', () =>
    expectOneLineFailure(['train', join(dir, 'nope.jsonl'), '--out', join(dir, 'm.json')], 1, /^linkscent train: cannot read .*nope\.jsonl: no such file$/));

  it('a labeled file with no valid line', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"url": "http://a/", "label": 1}\nnot json\n');
    await expectOneLineFailure(['train', path, '--out', join(dir, 'm.json')], 1, /no valid labeled links in .*bad\.jsonl \(2 bad lines; first .*bad\.jsonl:1: missing field "anchor"\)$/);
  });

  it('a corrupt model file', async () => {
    const labeled = join(dir, 'ok.jsonl');
    writeFileSync(labeled, `${JSON.stringify({ url: 'http://a/x', pageUrl: 'http://a/', anchor: '股票', before: '', after: '', label: 1 })}\n`);
    const model = join(dir, 'corrupt.json');
    writeFileSync(model, '{"formatName": "dexie", "data": ');
    await expectOneLineFailure(['eval', labeled, '--model', model], 1, /^linkscent eval: .*corrupt\.json/);
  });

  it('a model file that does not exist', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--model', join(dir, 'none.json'), '--max-pages', '5', '--out', dir], 1, /^linkscent crawl: cannot read model file .*none\.json: ENOENT$/));

  it('--out in a folder that does not exist', () =>
    expectOneLineFailure(['collect', 'http://127.0.0.1:9/', '--positive', 'a.org', '--max-pages', '1', '--out', join(dir, 'no/such/dir/x.jsonl')], 1, /^linkscent collect: cannot write .*x\.jsonl: its folder does not exist$/));

  // Regression: the atomic rename replaced whatever --out named; as root, /dev/full became a JSON
  // file. A named pipe stands in for the device (replacing a real one would break the machine).
  it('train --out something that is not a regular file: refused, left as it was', async () => {
    const labeled = join(dir, 'two-labels.jsonl');
    const example = (url: string, anchor: string, label: number) => JSON.stringify({ url, pageUrl: 'http://a.test/', anchor, before: '', after: '', label });
    writeFileSync(labeled, `${example('http://a.test/x', '股票', 1)}\n${example('http://a.test/y', '足球', 0)}\n`);
    const fifo = join(dir, 'model.pipe');
    execFileSync('mkfifo', [fifo]);
    await expectOneLineFailure(['train', labeled, '--out', fifo], 1, /^linkscent train: cannot write .*model\.pipe: it is a named pipe, not a regular file$/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  // Regression: Node's recursive mkdir looped forever on /proc (100 % CPU, deaf to SIGTERM).
  it.skipIf(!existsSync('/proc/self'))('crawl --out /proc/x: one line, at once', async () => {
    const result = await runCli(['crawl', 'http://127.0.0.1:9/', '--max-pages', '1', '--out', '/proc/linkscent-x'], { timeoutMs: 20_000 });
    expect(result.errorLines).toEqual(['linkscent crawl: cannot create the directory /proc/linkscent-x: the file system there makes no directories']);
    expect(result.code).toBe(1);
  });
});
