/**
 * The parse threads (`companion/parse/parse-pool.ts`): real worker threads running the real
 * parse, compared with the same parse on this thread.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireParsePool, MAX_RESTARTS, ParsePool } from '../../../companion/parse/parse-pool.ts';
import { parsePage } from '../../../companion/parse/parse-page.ts';
import { compileLinkRules } from '../../../companion/crawl/link-rules.ts';
import { DEFAULT_TRAP_CAPS } from '../../../companion/crawl/traps.ts';
import { MAX_LINKS_PER_PAGE } from '../../../shared/contexts/extract-contexts.ts';
import { YOUNG_GENERATION_MIB } from '../../../companion/platform/heap-growth.ts';

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
    const parsing = pool.parse({ html: '<p>x</p>', pageUrl: 'http://site.test/', window: 80 });
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
      const fromThreads = await Promise.all(pages.map(({ html, url }) => pool.parse({ html, pageUrl: url, window })));
      pages.forEach(({ html, url }, i) => {
        const here = parsePage({ html, pageUrl: url, window });
        expect(here.contexts.length).toBeGreaterThan(0);
        expect(fromThreads[i]).toEqual(here);
      });
    }
  });

  it("gives each page sent as bytes, with a crawl's link rules, what the same parse gives here: text, segments, contexts, hosts", async () => {
    const pool = startPool(2);
    await threadsReady(pool);
    const rules = compileLinkRules({ traps: { ...DEFAULT_TRAP_CAPS, maxPathSegments: 2 }, scope: { scope: 'seed-hosts', allow: [], deny: [] }, seeds: ['http://site.test/'] });
    const jobs = pages.map(({ html, url }) => ({ html: { bytes: new TextEncoder().encode(html), contentType: 'text/html' }, pageUrl: url, window: 80, links: { askedUrl: url, rules } }));
    const fromThreads = await Promise.all(jobs.map((job) => pool.parse(job)));
    const verdicts = new Set<boolean>();
    jobs.forEach((job, i) => {
      const here = parsePage(job);
      for (const host of here.hosts!) verdicts.add(host !== null);
      expect(fromThreads[i]).toEqual(here);
      expect(job.html.bytes.byteLength).toBeGreaterThan(0); // the page keeps its bytes: a copy moved
    });
    expect([...verdicts].sort()).toEqual([false, true]); // some links followable, some not
  });

  it("sends a crawl's link rules again to threads told to forget them", async () => {
    const pool = startPool(1);
    await threadsReady(pool);
    const rules = compileLinkRules({ traps: DEFAULT_TRAP_CAPS, scope: { scope: 'any', allow: [], deny: [] }, seeds: [] });
    const job = { html: pages[0]!.html, pageUrl: pages[0]!.url, window: 80, links: { askedUrl: pages[0]!.url, rules } };
    const first = await pool.parse(job);
    pool.forget(rules);
    expect(await pool.parse(job)).toEqual(first);
  });

  it('parses a hostile page of 100,000 links within its heap: its first MAX_LINKS_PER_PAGE links judged, the thread alive', async () => {
    const pool = startPool(1);
    const lines: string[] = [];
    pool.listen((line) => lines.push(line));
    await threadsReady(pool);
    const links = Array.from({ length: 100_000 }, (_, i) => `<a href="/${i % 7 === 0 ? 'a/a/a/a/' : ''}p${i}?${'q'.repeat(i % 300)}">link ${i}</a>`).join(' ');
    const rules = compileLinkRules({ traps: DEFAULT_TRAP_CAPS, scope: { scope: 'seed-hosts', allow: [], deny: [] }, seeds: ['http://site.test/'] });
    const parsed = await pool.parse({ html: `<p>${links}</p>`, pageUrl: 'http://site.test/', window: 80, links: { askedUrl: 'http://site.test/', rules } });
    expect(parsed.contexts).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(parsed.hosts).toHaveLength(MAX_LINKS_PER_PAGE);
    const followed = parsed.hosts!.filter((host) => host !== null).length;
    expect(followed).toBeGreaterThan(0);
    expect(followed).toBeLessThan(MAX_LINKS_PER_PAGE); // not the traps nor the long queries
    expect(lines).toEqual([]);
  });

  it('parses on this thread while no thread is ready, so the first pages do not wait', () => {
    const pool = startPool(1);
    const parsed = pool.parse({ html: pages[0]!.html, pageUrl: pages[0]!.url, window: 80 });
    expect(parsed).not.toBeInstanceOf(Promise);
    expect(parsed).toEqual(parsePage({ html: pages[0]!.html, pageUrl: pages[0]!.url, window: 80 }));
  });

  it("hands a parse's error back with its name and message", async () => {
    const pool = startPool(1, new URL('./fixtures/erring-thread.mjs', import.meta.url));
    await threadsReady(pool);
    const error = await Promise.resolve(pool.parse({ html: '<p>x</p>', pageUrl: 'http://site.test/a', window: 80 })).catch((e: unknown) => e);
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
    const parsed = pool.parse({ html: pages[0]!.html, pageUrl: pages[0]!.url, window: 80 });
    expect(parsed).toEqual(parsePage({ html: pages[0]!.html, pageUrl: pages[0]!.url, window: 80 }));
  });

  it('rejects the page a thread held when it died, with one line naming what happened', async () => {
    const pool = startPool(1, new URL('./fixtures/dying-thread.mjs', import.meta.url));
    let parsing = pool.parse({ html: '<p>x</p>', pageUrl: 'http://site.test/b', window: 80 });
    for (let i = 0; i < 200 && !(parsing instanceof Promise); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      parsing = pool.parse({ html: '<p>x</p>', pageUrl: 'http://site.test/b', window: 80 });
    }
    await expect(parsing).rejects.toThrow('the parse thread stopped while parsing the page: exit code 3');
  });

  // V8 puts its young generation growth back to the default whenever it makes a heap, a thread's
  // too: the pool holds the event loop's again before the event loop allocates anything more.
  it("starts its thread with the event loop's young generation held: a synchronous stretch right after does not grow it", () => {
    const module = (path: string) => JSON.stringify(resolve(import.meta.dirname, '../../../companion', path));
    const script = `
      const { ParsePool } = await import(${module('parse/parse-pool.ts')});
      const { parseThreadScript } = await import(${module('parse/thread-script.ts')});
      const { limitYoungGeneration, newSpaceBytes } = await import(${module('platform/heap-growth.ts')});
      limitYoungGeneration();
      await parseThreadScript(); // bundled: the pool's first page starts its thread at once
      const pool = new ParsePool(1);
      await new Promise((resolve) => setImmediate(resolve));
      const page = { html: '<p>x</p>', pageUrl: 'http://site.test/', window: 80 };
      pool.parse(page);
      let ring = [];
      for (let i = 0; i < 3_000_000; i++) {
        ring.push({ i, s: 'page ' + i });
        if (ring.length === 400_000) ring = [];
      }
      const newSpace = newSpaceBytes();
      await pool.loaded();
      const parsing = pool.parse(page);
      await parsing;
      console.log(JSON.stringify({ threaded: parsing instanceof Promise, newSpace }));
      await pool.close();
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ threaded: true, newSpace: YOUNG_GENERATION_MIB * 2 ** 20 });
  }, 60_000);

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
    expect(await c.parse({ html: pages[1]!.html, pageUrl: pages[1]!.url, window: 80 })).toEqual(parsePage({ html: pages[1]!.html, pageUrl: pages[1]!.url, window: 80 }));
    await c.release();
    await c.release(); // a second release is a no-op
    const d = acquireParsePool(1, () => {});
    expect(d.pool).not.toBe(a.pool);
    await d.release();
  });
});
