/**
 * The strategy's claim window: how far down the frontier a free worker may reach past URLs of
 * busy hosts. Two loopback hosts: the seed links to six pages on its own host, which the
 * strategy ranks high and which answer slowly, and six on another host ranked low. With one
 * slot per host and four workers, a window of 1 keeps the fetch order the strategy's order;
 * a wide window fills the idle workers with the low-ranked host's pages.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { CrawlStrategy } from '../../../companion/crawl/strategies/crawl-strategy.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const sites: ScriptedSite[] = [];
let high: string;
let low: string;

/** Hosts are told apart by name (politeness is per host name), so each server has its own address. */
async function serve(address: string, page: (path: string) => string, delayMs: number): Promise<string> {
  const site = await startScriptedSite({ address, page, delayMs });
  sites.push(site);
  return site.origin;
}

beforeAll(async () => {
  low = await serve('127.0.0.2', () => '<p>elsewhere</p>', 0);
  high = await serve('127.0.0.1', (path) => {
    if (path !== '/') return '<p>on topic</p>';
    const links = [1, 2, 3, 4, 5, 6].map((i) => `<p><a href="/t/${i}">topic ${i}</a> <a href="${low}/o/${i}">other ${i}</a></p>`);
    return `<html><body>${links.join('')}</body></html>`;
  }, 60);
});
afterAll(async () => {
  await Promise.all(sites.map((site) => site.close()));
});

function strategy(claimWindow: number): CrawlStrategy {
  return { name: 'by-host', claimWindow, scoreLinks: (_parent, links) => links.map((link) => (link.url.startsWith(high) ? 0.9 : 0.1)) };
}

async function fetchOrder(claimWindow: number): Promise<string[]> {
  const { dir, cleanup } = tempDir();
  try {
    const outDir = join(dir, 'out');
    await runCrawl({ seeds: [`${high}/`], outDir, maxPages: 13, strategy: strategy(claimWindow), concurrency: 4, perHostConcurrency: 1, delayMs: 0, log: () => {} });
    return readPages(outDir).map((page) => (page.url.startsWith(high) ? 'high' : 'low'));
  } finally {
    cleanup();
  }
}

describe('claim window', () => {
  // pages.jsonl is in the order fetches end: the last high page, claimed before any low one,
  // may end after the quick low ones, so the first six (the seed and five high) are compared.
  it('of 1: the busy host’s better URLs are waited for, each claimed before the other host’s', async () => {
    const order = await fetchOrder(1);
    expect(order).toHaveLength(13);
    expect(order.slice(0, 6)).toEqual(Array(6).fill('high'));
  });

  it('wide: idle workers take the other host’s lower-ranked URLs meanwhile', async () => {
    const order = await fetchOrder(256);
    expect(order).toHaveLength(13);
    expect(order.slice(0, 6)).toContain('low');
  });
});
