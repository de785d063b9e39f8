/**
 * The parse threads (`companion/parse/parse-pool.ts`): real worker threads running the real
 * parse, compared with the same parse on this thread.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireParsePool, MAX_RESTARTS, ParsePool } from '../../../companion/parse/parse-pool.ts';
import { parsePage } from '../../../companion/parse/parse-page.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/html');
const pages = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.html'))
  .map((name) => ({ url: `http://site.test/docs/${name}`, html: readFileSync(join(FIXTURES, name), 'utf8') }));

const pools: ParsePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function startPool(size: number, entry?: URL): ParsePool {
  const pool = new ParsePool(size, entry ? { entry } : {});
  pools.push(pool);
  return pool;
}

/** Resolves once the pool hands pages to a thread rather than parsing them here. */
async function threadsReady(pool: ParsePool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const parsing = pool.parse('<p>x</p>', 'http://site.test/', 80);
    if (parsing instanceof Promise) {
      await parsing.catch(() => {});
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no parse thread became ready in 10 s');
}

describe('ParsePool', () => {
  it('gives each page the segments and contexts the same parse gives on this thread', async () => {
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const pool = startPool(2);
    await threadsReady(pool);
    for (const window of [20, 80]) {
      const fromThreads = await Promise.all(pages.map(({ html, url }) => pool.parse(html, url, window)));
      pages.forEach(({ html, url }, i) => {
        const here = parsePage(html, url, window);
        expect(here.contexts.length).toBeGreaterThan(0);
        expect(fromThreads[i]).toEqual(here);
      });
    }
  });

  it('parses on this thread while no thread is ready, so the first pages do not wait', () => {
    const pool = startPool(1);
    const parsed = pool.parse(pages[0]!.html, pages[0]!.url, 80);
    expect(parsed).not.toBeInstanceOf(Promise);
    expect(parsed).toEqual(parsePage(pages[0]!.html, pages[0]!.url, 80));
  });

  it("hands a parse's error back with its name and message", async () => {
    const pool = startPool(1, new URL('./fixtures/erring-thread.mjs', import.meta.url));
    await threadsReady(pool);
    const error = await Promise.resolve(pool.parse('<p>x</p>', 'http://site.test/a', 80)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'TypeError', message: 'cannot parse http://site.test/a' });
  });

  it('fails the page of a thread that died, starts another, and parses here once threads keep dying', async () => {
    const pool = startPool(1, new URL('./fixtures/dying-thread.mjs', import.meta.url));
    const lines: string[] = [];
    pool.listen((line) => lines.push(line));
    for (let death = 1; death <= MAX_RESTARTS + 1; death++) {
      await threadsReady(pool).catch(() => {});
      // threadsReady's own probe page killed the thread; wait for its replacement's page.
      if (death <= MAX_RESTARTS) expect(lines).toHaveLength(death);
    }
    expect(lines[0]).toBe('crawl: a parse thread stopped (exit code 3); starting another');
    expect(lines.at(-1)).toBe(`crawl: a parse thread stopped (exit code 3), the ${MAX_RESTARTS + 1}th time; parsing on the main thread from now on`);
    const parsed = pool.parse(pages[0]!.html, pages[0]!.url, 80);
    expect(parsed).toEqual(parsePage(pages[0]!.html, pages[0]!.url, 80));
  });

  it('rejects the page a thread held when it died, with one line naming what happened', async () => {
    const pool = startPool(1, new URL('./fixtures/dying-thread.mjs', import.meta.url));
    let parsing = pool.parse('<p>x</p>', 'http://site.test/b', 80);
    for (let i = 0; i < 200 && !(parsing instanceof Promise); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      parsing = pool.parse('<p>x</p>', 'http://site.test/b', 80);
    }
    await expect(parsing).rejects.toThrow('the parse thread stopped while parsing the page: exit code 3');
  });

  it('refuses a thread count outside 1–16', () => {
    expect(() => new ParsePool(0)).toThrow('a parse pool has 1 to 16 threads, got 0');
    expect(() => new ParsePool(17)).toThrow(RangeError);
  });
});

describe('acquireParsePool', () => {
  it("shares one pool between a process's crawls, and the last release stops it", async () => {
    const a = acquireParsePool(1, () => {});
    const b = acquireParsePool(1, () => {});
    const c = acquireParsePool(1, () => {});
    expect(b.pool).toBe(a.pool);
    expect(c.pool).toBe(a.pool);
    const two = acquireParsePool(2, () => {});
    expect(two.pool).not.toBe(a.pool); // another thread count, another pool
    await two.release();
    await a.release();
    await b.release();
    await threadsReady(c.pool); // still running for c
    expect(await c.parse(pages[1]!.html, pages[1]!.url, 80)).toEqual(parsePage(pages[1]!.html, pages[1]!.url, 80));
    await c.release();
    await c.release(); // a second release is a no-op
    const d = acquireParsePool(1, () => {});
    expect(d.pool).not.toBe(a.pool);
    await d.release();
  });
});
