import { describe, expect, it } from 'vitest';
import { TemplateLinks, templateKey } from '../../../shared/labels/template-links.ts';

const page = (n: number, host = 'docs.test') => `https://${host}/help/page-${n}.html`;
const nav = (pageUrl: string, anchor = 'Functions') => ({ url: 'https://docs.test/help/functions.html', pageUrl, anchor });

describe('TemplateLinks', () => {
  it('calls a link a template link once it is seen under one anchor on minPages distinct pages of a host', () => {
    const templates = new TemplateLinks({ minPages: 3 });
    expect(templates.see(nav(page(1)))).toBe(false);
    expect(templates.see(nav(page(2)))).toBe(false);
    expect(templates.isTemplate(nav(page(9)))).toBe(false);
    expect(templates.see(nav(page(3)))).toBe(true);
    expect(templates.isTemplate(nav(page(9)))).toBe(true);
  });

  it('does not count the same page twice (a reload, a second batch)', () => {
    const templates = new TemplateLinks({ minPages: 3 });
    for (let i = 0; i < 5; i++) templates.see(nav(page(1)));
    templates.see(nav(page(2)));
    expect(templates.isTemplate(nav(page(1)))).toBe(false);
  });

  it('keeps links apart by anchor and by the host of the page they are on', () => {
    const templates = new TemplateLinks({ minPages: 2 });
    templates.see(nav(page(1), 'Functions'));
    templates.see(nav(page(2), 'Function list'));
    expect(templates.isTemplate(nav(page(3), 'Functions'))).toBe(false);
    templates.see(nav(page(1, 'other.test')));
    templates.see(nav(page(2, 'other.test')));
    expect(templates.isTemplate(nav(page(3)))).toBe(false);
    expect(templates.isTemplate(nav(page(3, 'other.test')))).toBe(true);
  });

  it('compares anchors after trimming, collapsing white space and lower-casing', () => {
    expect(templateKey(nav(page(1), '  Report  a\nBug '))).toBe(templateKey(nav(page(2), 'report a bug')));
    // Lone white space other than a space is collapsed too: a tab, a no-break space, a line break.
    expect(templateKey(nav(page(1), 'Report\ta\u00a0Bug'))).toBe(templateKey(nav(page(2), 'report a bug')));
    expect(templateKey(nav(page(1), 'Report\na bug'))).toBe(templateKey(nav(page(2), 'report a bug')));
    expect(templateKey(nav(page(1), 'Report a bug'))).not.toBe(templateKey(nav(page(2), 'report abug')));
  });

  it('says which sightings are repeats: pages after the first minPages, not those first ones', () => {
    const templates = new TemplateLinks({ minPages: 2 });
    templates.see(nav(page(1)));
    templates.see(nav(page(2)));
    templates.see(nav(page(3)));
    expect([1, 2, 3, 4].map((n) => templates.isRepeat(nav(page(n))))).toEqual([false, false, true, true]);
  });

  it('forgets the least recently seen link beyond maxEntries', () => {
    const templates = new TemplateLinks({ minPages: 2, maxEntries: 2 });
    const a = { url: 'https://docs.test/a', anchor: 'A' };
    const b = { url: 'https://docs.test/b', anchor: 'B' };
    const c = { url: 'https://docs.test/c', anchor: 'C' };
    templates.see({ ...a, pageUrl: page(1) });
    templates.see({ ...b, pageUrl: page(1) });
    templates.see({ ...a, pageUrl: page(2) }); // a is now the most recent
    templates.see({ ...c, pageUrl: page(1) }); // drops b
    expect(templates.size).toBe(2);
    expect(templates.isTemplate({ ...a, pageUrl: page(3) })).toBe(true);
    templates.see({ ...b, pageUrl: page(2) });
    expect(templates.isTemplate({ ...b, pageUrl: page(3) })).toBe(false);
  });

  it('asking (isTemplate, isRepeat) records nothing, not even that the link was seen lately', () => {
    const templates = new TemplateLinks({ minPages: 2, maxEntries: 2 });
    const a = { url: 'https://docs.test/a', anchor: 'A' };
    const b = { url: 'https://docs.test/b', anchor: 'B' };
    templates.see({ ...a, pageUrl: page(1) });
    templates.see({ ...a, pageUrl: page(2) });
    templates.see({ ...b, pageUrl: page(1) });
    expect(templates.isTemplate({ ...a, pageUrl: page(3) })).toBe(true);
    expect(templates.isRepeat({ ...a, pageUrl: page(3) })).toBe(true);
    templates.see({ url: 'https://docs.test/c', pageUrl: page(1), anchor: 'C' }); // drops a, the least recently seen
    expect(templates.isTemplate({ ...a, pageUrl: page(3) })).toBe(false);
    expect(templates.size).toBe(2);
  });

  it('keys a link by the host of each page it is on, pages of several hosts interleaved', () => {
    const templates = new TemplateLinks({ minPages: 2 });
    // The page's host is remembered from one link to the next: a page of another host in between must not inherit it.
    templates.see(nav(page(1, 'a.test')));
    templates.see(nav(page(1, 'b.test')));
    templates.see(nav(page(2, 'a.test')));
    expect(templates.isTemplate(nav(page(9, 'a.test')))).toBe(true);
    expect(templates.isTemplate(nav(page(9, 'b.test')))).toBe(false);
    expect(templateKey(nav(page(1, 'b.test')))).toContain('b.test');
  });

  it('refuses options that make no rule', () => {
    expect(() => new TemplateLinks({ minPages: 1 })).toThrow(/minPages/);
    expect(() => new TemplateLinks({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('TemplateLinks memory', () => {
  it("keeps one string of a page's URL for all its links, not each link's copy", async () => {
    // Handed by the worker, every link carries its own copy of the page's URL (a structured clone
    // makes one per link). 20,000 links of one page, each with a 1,000-character copy: 20 MB more if kept (28 MB grown before the change).
    const { heapAfterGc } = await import('../../support/heap-after-gc.ts');
    const templates = new TemplateLinks({ maxEntries: 20_000 });
    const pageUrl = `https://docs.test/help/${'x'.repeat(1_000)}.html`;
    const before = heapAfterGc();
    for (let i = 0; i < 20_000; i++) {
      const copy = [...pageUrl].join('');
      templates.see({ url: `https://docs.test/t/${i}.html`, pageUrl: copy, anchor: `第 ${i} 页` });
    }
    const grown = heapAfterGc() - before;
    expect(templates.size).toBe(20_000);
    expect(templates.isTemplate({ url: 'https://docs.test/t/7.html', pageUrl, anchor: '第 7 页' })).toBe(false);
    expect(grown).toBeLessThan(15_000_000);
  });
});
