/**
 * `--per-host-concurrency H` through the real bin: a loopback server that answers slowly and
 * counts requests in flight sees at most H at once, though `--concurrency` would allow more.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../crawl/crawl-test-helpers.ts';
import { startScriptedSite } from '../support/hostile-server.ts';
import { runCli } from '../support/run-cli.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A hub page linking to 12 leaves; every answer takes 150 ms so that requests overlap. */
async function slowSite() {
  const site = await startScriptedSite({
    delayMs: 150,
    page: (path) => {
      const body = path === '/' ? Array.from({ length: 12 }, (_, i) => `<p><a href="/leaf/${i}">leaf ${i}</a></p>`).join('') : '<p>a leaf</p>';
      return `<html><body>${body}</body></html>`;
    },
  });
  cleanups.push(site.close);
  return site;
}

describe('linkscent crawl --per-host-concurrency', () => {
  it('caps the requests in flight to one host', async () => {
    for (const [flag, expected] of [['1', 1], ['3', 3]] as const) {
      const site = await slowSite();
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const out = join(dir, 'out');
      const result = await runCli(['crawl', `${site.origin}/`, '--max-pages', '13', '--out', out, '--delay-ms', '0', '--concurrency', '8', '--per-host-concurrency', flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(site.mostInFlight()).toBe(expected);
    }
  });

  it('is bad usage below 1, and is listed in --help', async () => {
    const zero = await runCli(['collect', 'http://127.0.0.1:1/', '--positive', 'x', '--max-pages', '1', '--out', '/nonexistent', '--per-host-concurrency', '0']);
    expect(zero.code).toBe(2);
    expect(zero.errorLines).toHaveLength(1);
    expect(zero.errorLines[0]).toMatch(/^linkscent collect: --per-host-concurrency/);
    const help = await runCli(['crawl', '--help']);
    expect(help.stdout).toMatch(/--per-host-concurrency <H>\s+Pages fetched at once from one host, at most 64\s+\[default: 2\]/);
  });
});
