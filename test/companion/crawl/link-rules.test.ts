/**
 * The fixed link rules (`companion/crawl/link-rules.ts`), decided where a page is parsed, and the
 * changing ones left to the event loop (`linksToFollow`, `follow-links.ts`).
 */
import { describe, expect, it } from 'vitest';
import { linksToFollow, type FollowRules } from '../../../companion/crawl/follow-links.ts';
import { compileLinkRules, followableHosts, VERDICT_CACHE, type LinkRules } from '../../../companion/crawl/link-rules.ts';
import { DEFAULT_TRAP_CAPS } from '../../../companion/crawl/traps.ts';
import { parsePage } from '../../../companion/parse/parse-page.ts';

const PAGE = 'http://a.test/start/page.html';
const ASKED = 'http://a.test/start/'; // redirected to PAGE
const html = `<html><body>
  <p><a href="/docs/one.html">one</a> <a href="/docs/one.html">one again</a></p>
  <p><a href="/docs/two.html" rel="nofollow">two, nofollow</a> <a href="/docs/three.html" rel="nofollow">three</a> <a href="/docs/three.html">three, followable</a></p>
  <p><a href="page.html">itself</a> <a href="/start/">where it was asked</a></p>
  <p><a href="/a/x/a/y/a/z/a/">trap</a> <a href="http://b.test/b.html">another host</a> <a href="http://sub.a.test/c.html">a subdomain</a></p>
  <p><a href="http://a.test/private/x.html">denied</a></p>
</body></html>`;
const rules: LinkRules = { traps: DEFAULT_TRAP_CAPS, scope: { scope: 'seed-domains', allow: [], deny: ['http://a.test/private/*'] }, seeds: ['http://a.test/'] };

function hostsOf(source: string, linkRules = rules) {
  const { contexts, hosts } = parsePage({ html: source, pageUrl: PAGE, window: 40, links: { askedUrl: ASKED, rules: compileLinkRules(linkRules) } });
  return contexts.map(({ url }, i) => [url.replace('http://', ''), hosts![i]]);
}

describe('followableHosts', () => {
  it('gives the host of each link the page and the fixed rules let through, null for the others', () => {
    expect(hostsOf(html)).toEqual([
      ['a.test/docs/one.html', 'a.test'],
      ['a.test/docs/one.html', 'a.test'],
      ['a.test/docs/two.html', null], // rel=nofollow everywhere on the page
      ['a.test/docs/three.html', 'a.test'], // nofollow once, followable once
      ['a.test/docs/three.html', 'a.test'],
      ['a.test/start/page.html', null], // the page itself
      ['a.test/start/', null], // the URL it was asked under
      ['a.test/a/x/a/y/a/z/a/', null], // trap-shaped
      ['b.test/b.html', null], // out of the seeds' domains
      ['sub.a.test/c.html', 'sub.a.test'],
      ['a.test/private/x.html', null], // denied
    ]);
  });

  it('follows nothing on a page whose meta robots says nofollow', () => {
    const hosts = hostsOf(html.replace('<body>', '<head><meta name="robots" content="nofollow"></head><body>'));
    expect(hosts.length).toBeGreaterThan(5);
    expect(hosts.every(([, host]) => host === null)).toBe(true);
  });

  it('decides alike from the rules as a parse thread gets them (a structured clone)', () => {
    const { page, contexts } = parsePage({ html, pageUrl: PAGE, window: 40 });
    const once = followableHosts(ASKED, PAGE, page, contexts, compileLinkRules(rules));
    expect(followableHosts(ASKED, PAGE, page, contexts, compileLinkRules(structuredClone(rules)))).toEqual(once);
  });
});

describe('followableHosts across pages (the verdict cache)', () => {
  const parse = (source: string, pageUrl: string) => parsePage({ html: source, pageUrl, window: 40 });
  const hosts = (source: string, pageUrl: string, asked: string, compiled = compileLinkRules(rules)) => {
    const { page, contexts } = parse(source, pageUrl);
    return followableHosts(asked, pageUrl, page, contexts, compiled);
  };

  it('decides every page of a crawl as a fresh compile of the rules would', () => {
    const compiled = compileLinkRules(rules);
    const pages = [
      [html, PAGE, ASKED],
      // The first page's self-link and nofollow link are another page's ordinary links, and its
      // ordinary link is this page itself: what depends on the page must not be kept.
      [html.replaceAll(' rel="nofollow"', ''), 'http://a.test/docs/one.html', 'http://a.test/docs/one.html'],
      [html.replace('<body>', '<head><meta name="robots" content="nofollow"></head><body>'), 'http://a.test/x.html', 'http://a.test/x.html'],
      [html, 'http://a.test/start/other.html', 'http://a.test/start/other.html'],
    ] as const;
    for (const [source, pageUrl, asked] of pages) expect(hosts(source, pageUrl, asked, compiled)).toEqual(hosts(source, pageUrl, asked));
    expect(compiled.verdicts.size).toBeGreaterThan(5);
    expect(hosts(pages[1][0], pages[1][1], pages[1][2], compiled)).toContain(null); // itself
    expect(hosts(pages[1][0], pages[1][1], pages[1][2], compiled).filter((host) => host === 'a.test').length).toBeGreaterThan(3);
  });

  it('answers from what it kept: a verdict is not worked out twice', () => {
    const compiled = compileLinkRules(rules);
    hosts(html, PAGE, ASKED, compiled);
    compiled.verdicts.set('http://a.test/docs/one.html', 'kept.test');
    expect(hosts(html, 'http://a.test/other.html', 'http://a.test/other.html', compiled)[0]).toBe('kept.test');
  });

  it('keeps a verdict from a URL\'s second sighting on: links seen once are judged and not kept', () => {
    const compiled = compileLinkRules(rules);
    const once = Array.from({ length: 500 }, (_, i) => `<a href="/once/${i}.html">${i}</a>`).join(' ');
    const first = hosts(`<p>${once}</p>`, PAGE, ASKED, compiled);
    expect(first.every((host) => host === 'a.test')).toBe(true);
    expect(compiled.verdicts.size).toBe(0);
    expect(hosts(`<p>${once}</p>`, 'http://a.test/again.html', 'http://a.test/again.html', compiled)).toEqual(first);
    // A URL whose slot in the filter another took waits for a later sighting (494 of 500 here).
    expect(compiled.verdicts.size).toBeGreaterThan(450);
  });

  it('stays within its bounds over pages of more distinct links than it holds', () => {
    const compiled = compileLinkRules(rules);
    const perPage = Math.ceil((VERDICT_CACHE.maxEntries + 1000) / 2); // a page gives at most 20,000 contexts
    for (const part of [0, 1]) {
      const many = Array.from({ length: perPage }, (_, i) => `<a href="/many/${part}/${i}.html">${i}</a>`).join(' ');
      // Twice: a verdict is kept from a URL's second sighting on.
      for (let sighting = 0; sighting < 2; sighting++) {
        const found = hosts(`<p>${many}</p>`, PAGE, ASKED, compiled);
        expect(found.length).toBe(perPage);
        expect(found.every((host) => host === 'a.test')).toBe(true);
      }
    }
    expect(compiled.verdicts.size).toBeGreaterThan(VERDICT_CACHE.maxEntries / 2);
    expect(compiled.verdicts.size).toBeLessThanOrEqual(VERDICT_CACHE.maxEntries);
    expect(compiled.verdicts.keyChars).toBeLessThanOrEqual(VERDICT_CACHE.maxKeyChars);
  });
});

describe('linksToFollow', () => {
  const task = { url: ASKED, depth: 1, score: 0, parent: null };
  const follow = (over: Partial<FollowRules> = {}, asked: string[] = []) =>
    linksToFollow(task, ['a.test', null, 'b.test', 'a.test'], {
      maxDepth: 5,
      hostOpen: (host) => (asked.push(host), host !== 'b.test'),
      hostPenalty: () => 0,
      strategyName: 'test',
      keepContexts: false,
      ...over,
    });

  it("follows the fixed rules' hosts whose page cap is open, asking once per host", () => {
    const asked: string[] = [];
    expect(follow({}, asked)).toEqual([true, false, false, true]);
    expect(asked).toEqual(['a.test', 'b.test']);
  });

  it('follows nothing past maxDepth', () => {
    expect(follow({ maxDepth: 1 })).toEqual([false, false, false, false]);
  });
});
