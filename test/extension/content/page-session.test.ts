// @vitest-environment happy-dom
/**
 * The content script's page session against a fake background: settings first, links in
 * capped batches (visible first), one frame per verdict batch, links added later, refresh,
 * clear and summary. The `browser` object is the only fake; the DOM is happy-dom's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkVerdict, PageLink } from '../../../extension/messages/page-links.ts';
import { createContentSender } from '../../../extension/messages/send.ts';
import { createTranslate } from '../../../extension/ui/i18n.ts';
import { extractLinks } from '../../../extension/content/extract-links.ts';
import { PageSession, type SessionEnv, type SessionOptions } from '../../../extension/content/page-session.ts';
import { LEVEL_ATTRIBUTE, MARK_CLASS } from '../../../extension/content/paint.ts';
import { fakeBrowser } from '../ui/fake-browser.ts';

const pageUrl = 'http://news.example.com/index.html';

/** The fake background's verdict: "finance" in the anchor → level 3, anything else → 0. */
function judge(link: PageLink): LinkVerdict {
  const on = link.anchor.includes('finance');
  return { ref: link.ref, p: on ? 0.92 : 0.1, level: on ? 3 : 0, top: [{ feature: `a:${link.anchor.split(' ')[0]}`, weight: on ? 2 : -1 }] };
}

interface Harness {
  session: PageSession;
  browser: ReturnType<typeof fakeBrowser>;
  frames: () => number;
  linkMessages: () => { links: PageLink[]; first: boolean }[];
}

/** The fake background's `page/links` answer: verdicts at once, unless a test holds or fails them. */
type PageLinksHandler = (message: Record<string, unknown>) => unknown;
const answerAtOnce: PageLinksHandler = (message) => ({ verdicts: (message['links'] as PageLink[]).map(judge) });

/** `env` replaces parts of the session's surroundings (a test's own frames, `settled`…); `frames()` counts only the harness's own frames. */
function harness(settings: { enabled: boolean; window?: number; maxLinks?: number }, options: SessionOptions = {}, pageLinks = answerAtOnce, env: Partial<SessionEnv> = {}): Harness {
  const browser = fakeBrowser({
    'page/settings': { window: 80, maxLinks: 5000, ...settings },
    'page/links': pageLinks,
    'page/count': { ok: true },
    'link/explain': (message: Record<string, unknown>) => ({ top: judge(message['link'] as PageLink).top }),
  });
  let frames = 0;
  const session = new PageSession(
    {
      doc: document,
      send: createContentSender(browser.runtime),
      t: createTranslate(browser.i18n),
      // One step per slice: the count-based batch size alone bounds each slice.
      requestIdle: (callback) => setTimeout(() => callback({ timeRemaining: () => 0 }), 0),
      requestFrame: (callback) => {
        frames++;
        setTimeout(callback, 0);
      },
      pageUrl: () => pageUrl,
      viewport: () => ({ width: 1000, height: 800 }),
      ...env,
    },
    { debounceMs: 20, ...options },
  );
  return {
    session,
    browser,
    frames: () => frames,
    linkMessages: () =>
      browser.sent.filter((m) => m['type'] === 'page/links') as unknown as { links: PageLink[]; first: boolean }[],
  };
}

/** A page of `n` list links, every third about finance. */
function buildPage(n: number): void {
  document.title = 'Portal';
  const list = document.createElement('ul');
  for (let i = 0; i < n; i++) {
    const item = document.createElement('li');
    const a = document.createElement('a');
    a.setAttribute('href', `/item/${i}`);
    a.textContent = i % 3 === 0 ? `finance story ${i}` : `sport story ${i}`;
    item.append(a);
    list.append(item);
  }
  document.body.replaceChildren(list);
}

/** Every link sent to the fake background, in order. */
function sentLinks(browser: ReturnType<typeof fakeBrowser>): PageLink[] {
  return (browser.sent.filter((m) => m['type'] === 'page/links') as unknown as { links: PageLink[] }[]).flatMap((m) => m.links);
}

let current: Harness | undefined;
beforeEach(() => {
  document.body.replaceChildren();
});
afterEach(() => {
  current?.session.destroy();
  current = undefined;
});

describe('PageSession', () => {
  it('asks for settings, sends every link in batches, and paints the verdicts in animation frames', async () => {
    buildPage(23);
    const h = (current = harness({ enabled: true }, { linksPerMessage: 10, laterLinksPerMessage: 5 }));
    await h.session.start();

    expect(h.browser.sent[0]).toEqual({ type: 'page/settings', pageUrl });
    const batches = h.linkMessages();
    // The first batch (the links in view first) at one size, the rest at the later size.
    expect(batches.map((b) => b.links.length)).toEqual([10, 5, 5, 3]);
    expect(batches.map((b) => b.first)).toEqual([true, false, false, false]);
    // The fake background answers at once, so every reply is in before the first frame, and
    // that frame paints them all (23 verdicts, under the 500 a frame may take).
    expect(h.frames()).toBe(1);
    // The contexts sent are exactly the shared pipeline's for this document, without the page
    // URL in each link (the background takes it from the sender); the title only comes first.
    const sent = batches.flatMap((b) => b.links);
    const expected = extractLinks(document, pageUrl, { window: 80 }).map(({ context: { pageUrl: _, ...link } }) => link);
    expect(sent.map(({ ref: _, ...link }) => link)).toEqual(expected);
    expect(sent.some((link) => 'pageUrl' in link)).toBe(false);
    expect((batches as unknown as Record<string, unknown>[]).map((b) => b['title'])).toEqual(['Portal', undefined, undefined, undefined]);
    expect(new Set(sent.map((l) => l.ref)).size).toBe(23);

    const links = [...document.querySelectorAll('a')];
    for (const a of links) {
      const on = a.textContent!.includes('finance');
      expect(a.getAttribute(LEVEL_ATTRIBUTE)).toBe(on ? '3' : null);
      expect(a.classList.contains(MARK_CLASS)).toBe(on);
    }
    const counts = h.browser.sent.filter((m) => m['type'] === 'page/count');
    expect(counts.at(-1)).toEqual({ type: 'page/count', pageUrl, onTopic: 8, total: 23 });
  });

  it('sends the next batch while the last one waits for its frame, then leaves the settled totals', async () => {
    // Regression (bench/extension-bench.ts): waiting for each batch's frame before sending the
    // next one held a 5,000-link page to one 100-link batch per frame.
    buildPage(25);
    const frames: (() => void)[] = [];
    const settled: { onTopic: number; total: number }[] = [];
    const { session, linkMessages } = harness({ enabled: true }, { linksPerMessage: 10, laterLinksPerMessage: 10 }, answerAtOnce, {
      requestFrame: (callback) => frames.push(callback),
      settled: (totals) => settled.push(totals),
    });
    const run = session.start();
    // No frame has come yet, and every batch has gone.
    await vi.waitFor(() => expect(linkMessages()).toHaveLength(3), { timeout: 2000, interval: 5 });
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(0);
    expect(settled).toEqual([]);
    // One frame paints all three batches; then the run is settled.
    for (const frame of frames.splice(0)) frame();
    await run;
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(9);
    expect(settled).toEqual([{ onTopic: 9, total: 25 }]);
    session.destroy();
  });

  it('sends the first batch alone, then keeps three later batches waiting for verdicts at once', async () => {
    buildPage(45);
    const waiting: (() => void)[] = [];
    let most = 0;
    const h = (current = harness({ enabled: true }, { linksPerMessage: 5, laterLinksPerMessage: 10 }, (message) =>
      new Promise((resolve) => {
        waiting.push(() => resolve({ verdicts: (message['links'] as PageLink[]).map(judge) }));
        most = Math.max(most, waiting.length);
      }),
    ));
    const run = h.session.start();
    await vi.waitFor(() => expect(h.linkMessages()).toHaveLength(1), { timeout: 2000, interval: 5 });
    expect(waiting).toHaveLength(1); // the links in view go alone
    waiting.shift()!();
    await vi.waitFor(() => expect(waiting).toHaveLength(3), { timeout: 2000, interval: 5 });
    while (waiting.length > 0) {
      waiting.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await run;
    expect(most).toBe(3);
    expect(h.linkMessages().map((m) => m.links.length)).toEqual([5, 10, 10, 10, 10]);
    expect(h.linkMessages().map((m) => m.first)).toEqual([true, false, false, false, false]);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(15);
  });

  it('stops sending when a later batch fails, and the run fails', async () => {
    buildPage(45);
    let calls = 0;
    const h = (current = harness({ enabled: true }, { linksPerMessage: 5, laterLinksPerMessage: 5 }, async (message) => {
      calls += 1;
      if (calls === 2) throw new Error('the background went away');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { verdicts: (message['links'] as PageLink[]).map(judge) };
    }));
    await expect(h.session.start()).rejects.toThrow(/page\/links/);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The first batch, the failed one, and the two already in flight beside it: no more.
    expect(calls).toBe(4);
  });

  it('by default sends 100 links first, then 500 at a time (fewer round trips and frames)', async () => {
    buildPage(700);
    const h = (current = harness({ enabled: true }));
    await h.session.start();
    expect(h.linkMessages().map((b) => b.links.length)).toEqual([100, 500, 100]);
  });

  it('stops at the per-page cap', async () => {
    buildPage(30);
    const h = (current = harness({ enabled: true, maxLinks: 12 }, { linksPerMessage: 5, laterLinksPerMessage: 5 }));
    await h.session.start();
    expect(h.linkMessages().map((b) => b.links.length)).toEqual([5, 5, 2]);
    expect(h.session.registry.size).toBe(12);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(4);
  });

  it('sends links in view before the rest', async () => {
    buildPage(6);
    const links = [...document.querySelectorAll('a')];
    // happy-dom lays nothing out: give two links a box, one in view and one just below it.
    links[4]!.getBoundingClientRect = () => new DOMRect(10, 100, 80, 16);
    links[1]!.getBoundingClientRect = () => new DOMRect(10, 1200, 80, 16);
    const h = (current = harness({ enabled: true }));
    await h.session.start();
    expect(h.linkMessages()[0]!.links.map((l) => l.url)).toEqual([4, 1, 0, 2, 3, 5].map((i) => `http://news.example.com/item/${i}`));
  });

  it('does nothing at all when the background says the site is off', async () => {
    buildPage(5);
    const h = (current = harness({ enabled: false }));
    await h.session.start();
    const a = document.createElement('a');
    a.href = '/later';
    a.textContent = 'finance later';
    document.body.append(a);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.browser.sent.map((m) => m['type'])).toEqual(['page/settings']);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(0);
  });

  it('picks up links added later, sending only the new ones', async () => {
    buildPage(4);
    const h = (current = harness({ enabled: true }));
    await h.session.start();
    expect(h.linkMessages()).toHaveLength(1);

    const card = document.createElement('article');
    const on = document.createElement('a');
    on.setAttribute('href', '/later/1');
    on.textContent = 'finance later';
    const off = document.createElement('a');
    off.setAttribute('href', '/later/2');
    off.textContent = 'sport later';
    card.append(on, document.createTextNode(' | '), off);
    document.body.append(card);

    await vi.waitFor(() => expect(on.getAttribute(LEVEL_ATTRIBUTE)).toBe('3'), { timeout: 2000, interval: 10 });
    const later = h.linkMessages()[1]!;
    expect(later.first).toBe(false);
    expect(later.links.map((l) => l.anchor)).toEqual(['finance later', 'sport later']);
    expect(later.links.map((l) => l.ref)).toEqual([4, 5]);
    expect(off.hasAttribute(LEVEL_ATTRIBUTE)).toBe(false);
  });

  it('skips links added inside a hidden element', async () => {
    buildPage(2);
    const h = (current = harness({ enabled: true }));
    await h.session.start();
    const hidden = document.createElement('div');
    hidden.hidden = true;
    document.body.append(hidden);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const a = document.createElement('a');
    a.href = '/hidden';
    a.textContent = 'finance hidden';
    hidden.append(a);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.linkMessages()).toHaveLength(1);
  });

  it('starts from the published settings without asking the background, and asks on a refresh', async () => {
    buildPage(6);
    // The fake background would say "off": the published settings, which say "on", are used.
    const h = (current = harness({ enabled: false }, {}, answerAtOnce, { publishedSettings: async () => ({ enabled: true, window: 80, maxLinks: 5000 }) }));
    await h.session.start();
    expect(h.browser.sent.map((m) => m['type'])).not.toContain('page/settings');
    expect(h.browser.sent[0]!['type']).toBe('page/links');
    expect(sentLinks(h.browser)).toHaveLength(6);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(2);

    // A refresh comes because something changed: the background is asked, and here says "off".
    await h.session.handle({ type: 'verdicts/refresh' });
    await vi.waitFor(() => expect(h.browser.sent.filter((m) => m['type'] === 'page/settings')).toHaveLength(1), { timeout: 2000, interval: 10 });
    await vi.waitFor(() => expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(0), { timeout: 2000, interval: 10 });
  });

  it('honours published settings that say the site is off, and asks when none are published', async () => {
    buildPage(4);
    const off = (current = harness({ enabled: true }, {}, answerAtOnce, { publishedSettings: async () => ({ enabled: false, window: 80, maxLinks: 5000 }) }));
    await off.session.start();
    expect(off.browser.sent).toEqual([]);
    off.session.destroy();

    const none = (current = harness({ enabled: true }, {}, answerAtOnce, { publishedSettings: async () => null }));
    await none.session.start();
    expect(none.browser.sent[0]).toEqual({ type: 'page/settings', pageUrl });
    expect(sentLinks(none.browser)).toHaveLength(4);
  });

  it("asks for a lit link's explanation on hover with the context it sent, and shows it", async () => {
    buildPage(6);
    const bare: PageLinksHandler = (message) => ({ verdicts: (message['links'] as PageLink[]).map((link) => ({ ...judge(link), top: undefined })) });
    const h = (current = harness({ enabled: true }, {}, bare));
    await h.session.start();
    const lit = document.querySelector(`[${LEVEL_ATTRIBUTE}]`)!;
    lit.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    await vi.waitFor(() => expect(h.browser.sent.filter((m) => m['type'] === 'link/explain')).toHaveLength(1), { timeout: 2000, interval: 10 });
    const asked = h.browser.sent.find((m) => m['type'] === 'link/explain')!;
    const sent = sentLinks(h.browser).find((link) => link.anchor === lit.textContent)!;
    expect(asked).toEqual({ type: 'link/explain', pageUrl, link: sent });
    await vi.waitFor(() => expect(document.querySelector('linkscent-tip')?.hasAttribute('data-open')).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('answers refresh (again, same refs), summary and clear', async () => {
    buildPage(6);
    const h = (current = harness({ enabled: true }));
    await h.session.start();
    const firstRefs = h.linkMessages()[0]!.links.map((l) => l.ref);

    expect(await h.session.handle({ type: 'page/summary' })).toEqual({ onTopic: 2, total: 6 });

    expect(await h.session.handle({ type: 'verdicts/refresh' })).toEqual({ ok: true });
    await vi.waitFor(() => expect(h.linkMessages()).toHaveLength(2), { timeout: 2000, interval: 10 });
    const again = h.linkMessages()[1]!;
    expect(again.first).toBe(true);
    expect(again.links.map((l) => l.ref)).toEqual(firstRefs);
    expect(h.browser.sent.filter((m) => m['type'] === 'page/settings')).toHaveLength(2);

    expect(await h.session.handle({ type: 'highlight/clear' })).toEqual({ ok: true });
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}], .${MARK_CLASS}`)).toHaveLength(0);
    expect(await h.session.handle({ type: 'page/summary' })).toEqual({ onTopic: 0, total: 0 });
  });

  it('drops a run overtaken by a refresh, so no link is sent twice', async () => {
    buildPage(40);
    const h = (current = harness({ enabled: true }, { linksPerMessage: 10, domBatch: 4 }));
    const first = h.session.start();
    await h.session.handle({ type: 'verdicts/refresh' });
    await first;
    await vi.waitFor(() => expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(14), { timeout: 3000, interval: 10 });
    expect(h.browser.sent.filter((m) => m['type'] === 'page/settings')).toHaveLength(2);
    const sent = h.linkMessages().flatMap((b) => b.links);
    expect(sent).toHaveLength(40);
    expect(h.linkMessages().filter((b) => b.first)).toHaveLength(1);
  });

  it('started while the page is parsed, sends its first links before the parse ends, then the rest in page order as the walk finalizes them, each once', async () => {
    buildPage(40);
    let state: DocumentReadyState = 'loading';
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
    try {
      const links = [...document.querySelectorAll('a')];
      // Laid out, link 30 would be the one in view: a page opened at its top does not rank.
      links[30]!.getBoundingClientRect = () => new DOMRect(10, 100, 80, 16);
      const settled: { onTopic: number; total: number }[] = [];
      const waiting: (() => void)[] = [];
      const { session, browser, linkMessages, frames } = (current = harness(
        { enabled: true },
        { leadingLinks: 8, linksPerMessage: 10, laterLinksPerMessage: 10, domBatch: 8 },
        (message) => new Promise((resolve) => waiting.push(() => resolve(answerAtOnce(message)))),
        {
          requestSoon: (callback) => setTimeout(() => callback({ timeRemaining: () => 0 }), 0),
          settled: (totals) => settled.push(totals),
        },
      ));
      const run = session.start();
      // The page is still being parsed, but its first links are there: they go at once.
      await vi.waitFor(() => expect(linkMessages()).toHaveLength(1), { timeout: 2000, interval: 5 });
      expect(browser.sent.map((m) => m['type'])).toEqual(['page/settings', 'page/links']);
      waiting.shift()!();
      // Its verdicts are painted as they come, not in an animation frame: the page has none yet.
      await vi.waitFor(() => expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(3), { timeout: 2000, interval: 5 });
      expect(frames()).toBe(0);
      // Nothing more while the page is parsed (several checks of readyState go by meanwhile).
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(linkMessages()).toHaveLength(1);
      state = 'interactive';
      await vi.waitFor(
        () => {
          waiting.shift()?.();
          expect(settled).toHaveLength(1);
        },
        { timeout: 3000, interval: 5 },
      );
      await run;
      const batches = linkMessages();
      // The first 8, then the rest in page order, 10 at a time.
      expect(batches.map((b) => b.links.length)).toEqual([8, 10, 10, 10, 2]);
      expect(batches.map((b) => b.first)).toEqual([true, false, false, false, false]);
      expect(batches[0]!.links.map((l) => l.anchor)).toEqual(links.slice(0, 8).map((a) => a.textContent));
      // Exactly the whole page's contexts, in page order.
      const whole = extractLinks(document, pageUrl, { window: 80 }).map(({ context: { pageUrl: _, ...link } }) => link);
      const sent = batches.flatMap((b) => b.links);
      expect(sent.map(({ ref: _, ...link }) => link)).toEqual(whole);
      expect(new Set(sent.map((l) => l.ref)).size).toBe(40);
      expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(14);
      expect(settled).toEqual([{ onTopic: 14, total: 40 }]);
    } finally {
      delete (document as unknown as { readyState?: unknown }).readyState;
    }
  });

  it('started while the page is parsed, sends the links parsed so far, and again any the page changed before its end', async () => {
    // The parser has built 5 links of 30 when the settings come: the first 3 are final.
    buildPage(30);
    const list = document.querySelector('ul')!;
    const rest = [...list.children].slice(5);
    for (const item of rest) item.remove();
    let state: DocumentReadyState = 'loading';
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
    try {
      const { session, linkMessages } = (current = harness({ enabled: true }, { leadingLinks: 8, laterLinksPerMessage: 10, domBatch: 8 }, answerAtOnce, {
        requestSoon: (callback) => setTimeout(() => callback({ timeRemaining: () => 0 }), 0),
      }));
      const run = session.start();
      await vi.waitFor(() => expect(linkMessages()).toHaveLength(1), { timeout: 2000, interval: 5 });
      const first = linkMessages()[0]!.links;
      expect(first.map((l) => l.anchor)).toEqual(['finance story 0', 'sport story 1', 'sport story 2']);
      // The rest is parsed, and a page script rewrites the second link before the parse ends.
      list.append(...rest);
      const second = document.querySelectorAll('a')[1]!;
      second.textContent = 'finance story 1';
      state = 'interactive';
      await run;
      const sent = linkMessages().flatMap((b) => b.links);
      const whole = extractLinks(document, pageUrl, { window: 80 }).map(({ context: { pageUrl: _, ...link } }) => link);
      // The rewritten link and the two whose context reads its text went again, under the same
      // refs, as they are now; every other link once.
      const changed = first.filter(({ ref: _, ...link }, i) => JSON.stringify(link) !== JSON.stringify(whole[i]));
      expect(changed.map((l) => l.anchor)).toEqual(['finance story 0', 'sport story 1', 'sport story 2']);
      expect(sent).toHaveLength(30 + changed.length);
      expect(sent.filter((l) => l.ref === first[1]!.ref).map((l) => l.anchor)).toEqual(['sport story 1', 'finance story 1']);
      expect(second.getAttribute(LEVEL_ATTRIBUTE)).toBe('3');
      // The last context sent for each link is the whole page's.
      const last = new Map(sent.map(({ ref, ...link }) => [ref, link]));
      expect([...last.values()]).toEqual(whole);
    } finally {
      delete (document as unknown as { readyState?: unknown }).readyState;
    }
  });

  it('started while the page is parsed, sends later links while the walk is still going', async () => {
    buildPage(60);
    let state: DocumentReadyState = 'loading';
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
    try {
      const slices: (() => void)[] = [];
      const { session, linkMessages } = (current = harness({ enabled: true }, { leadingLinks: 5, laterLinksPerMessage: 10, domBatch: 8 }, answerAtOnce, {
        // The test gives each slice of the walk by hand.
        requestSoon: (callback) => slices.push(() => callback({ timeRemaining: () => 0 })),
      }));
      const run = session.start();
      state = 'interactive';
      await vi.waitFor(() => expect(linkMessages()).toHaveLength(1), { timeout: 2000, interval: 5 });
      // Slice by slice: the second message goes before the walk has passed half the page.
      let given = 0;
      await vi.waitFor(
        () => {
          if (slices.length > 0) {
            slices.shift()!();
            given++;
          }
          expect(linkMessages()).toHaveLength(2);
        },
        { timeout: 2000, interval: 5 },
      );
      // 60 <li><a>text</a></li> are 180 nodes, 8 a slice: the whole walk takes 23 slices.
      expect(given).toBeLessThan(12);
      await vi.waitFor(
        () => {
          slices.shift()?.();
          expect(linkMessages().flatMap((b) => b.links)).toHaveLength(60);
        },
        { timeout: 3000, interval: 5 },
      );
      await run;
      expect(linkMessages().map((b) => b.links.length)).toEqual([5, 10, 10, 10, 10, 10, 5]);
    } finally {
      delete (document as unknown as { readyState?: unknown }).readyState;
    }
  });

  it('paints a link added while earlier verdicts still wait for frames', async () => {
    buildPage(30);
    const frames: (() => void)[] = [];
    const { session, browser } = harness({ enabled: true }, { debounceMs: 10, paintPerFrame: 4 }, answerAtOnce, {
      requestFrame: (callback) => frames.push(callback),
    });
    const run = session.start();
    await vi.waitFor(() => expect(frames).toHaveLength(1), { timeout: 2000, interval: 5 });
    frames.shift()!();
    const late = document.createElement('a');
    late.setAttribute('href', '/late');
    late.textContent = 'finance late';
    document.body.append(late);
    // Frames as the browser would give them, until the added link has its verdict painted.
    await vi.waitFor(
      () => {
        frames.shift()?.();
        expect(late.getAttribute(LEVEL_ATTRIBUTE)).toBe('3');
      },
      { timeout: 3000, interval: 5 },
    );
    await run;
    const marked = [...document.querySelectorAll('a')].filter((a) => a.textContent!.includes('finance'));
    expect(marked.every((a) => a.getAttribute(LEVEL_ATTRIBUTE) === '3')).toBe(true);
    expect(sentLinks(browser)).toHaveLength(31);
    session.destroy();
  });
});
