import { describe, expect, it } from 'vitest';
import { normalizeUrl, urlHost } from '../../../shared/urls/index.ts';
import { urlResolver } from '../../../shared/urls/normalize-url.ts';

const base = 'http://www.example.com.cn/news/2010/index.html';

describe('normalizeUrl', () => {
  it.each([
    ['relative path', 'a.html', 'http://www.example.com.cn/news/2010/a.html'],
    ['parent path', '../b/c.html?x=1', 'http://www.example.com.cn/news/b/c.html?x=1'],
    ['root path', '/finance/', 'http://www.example.com.cn/finance/'],
    ['protocol-relative', '//cdn.example.com/x', 'http://cdn.example.com/x'],
    ['host lower-cased', 'HTTP://Money.163.COM/Path/A', 'http://money.163.com/Path/A'],
    ['default http port dropped', 'http://example.com:80/a', 'http://example.com/a'],
    ['default https port dropped', 'https://example.com:443/a', 'https://example.com/a'],
    ['other port kept', 'http://example.com:8080/a', 'http://example.com:8080/a'],
    ['fragment dropped', 'page.html#section-2', 'http://www.example.com.cn/news/2010/page.html'],
    ['empty fragment dropped', 'http://example.com/#', 'http://example.com/'],
    ['fragment-only href is the page itself', '#top', 'http://www.example.com.cn/news/2010/index.html'],
    ['a # in the fragment goes with it', 'a.html?x=1#b#c', 'http://www.example.com.cn/news/2010/a.html?x=1'],
    ['an encoded # in path and query stays', '/a%23b?q=%23#f', 'http://www.example.com.cn/a%23b?q=%23'],
    ['surrounding white space trimmed', '  \n\t/a.html \n', 'http://www.example.com.cn/a.html'],
    ['newline and tab inside removed', '/fin\nance/\tx.html', 'http://www.example.com.cn/finance/x.html'],
    ['non-ASCII path percent-encoded', '/tag/股票', 'http://www.example.com.cn/tag/%E8%82%A1%E7%A5%A8'],
    ['IDN host punycoded', 'http://例子.中国/', 'http://xn--fsqu00a.xn--fiqs8s/'],
    ['dot segments resolved', '/a/./b/../c', 'http://www.example.com.cn/a/c'],
  ])('%s', (_name, href, expected) => {
    expect(normalizeUrl(href, base)).toBe(expected);
  });

  it.each([
    ['javascript:', 'javascript:void(0)'],
    ['javascript: in capitals with spaces', ' JavaScript:alert(1)'],
    ['mailto:', 'mailto:editor@example.com'],
    ['tel:', 'tel:+861012345678'],
    ['data:', 'data:text/html,<b>hi</b>'],
    ['ftp:', 'ftp://ftp.example.com/file'],
    ['unparsable host', 'http://[bad'],
    ['bad port', 'http://example.com:99999/'],
  ])('drops %s', (_name, href) => {
    expect(normalizeUrl(href, base)).toBeUndefined();
  });

  it('with a base that does not parse: resolves an absolute href, drops a relative one', () => {
    expect(normalizeUrl('a.html', 'not a url')).toBeUndefined();
    expect(normalizeUrl('https://example.com/a', 'not a url')).toBe('https://example.com/a');
  });
});

describe('urlHost', () => {
  it('gives the lower-case host name without the port', () => {
    expect(urlHost('http://Finance.Sina.com.cn:8080/a')).toBe('finance.sina.com.cn');
  });

  it('gives undefined for a string that is not an absolute URL', () => {
    expect(urlHost('/relative/path')).toBeUndefined();
  });
});

describe('urlResolver', () => {
  const bases = [
    base,
    'http://h.test/',
    'https://user:pw@h.test:8443/a/b/',
    'http://h.test/a/b/c.html?q=1#f',
    'http://h.test/a/b/c.html?',
    'http://H.TEST/A//B/c',
    'http://h.test/a/%2e%2e/x',
    'ftp://h.test/a/', // not http(s): every href goes to normalizeUrl
    'not a URL',
  ];
  // Every href of up to three of these pieces: the plain characters the fast path joins, the
  // dot segments it walks, and what must send an href to the URL parser (a scheme's colon, a
  // query, an escape, a backslash, white space, a non-ASCII letter, a drive letter).
  const pieces = ['a', 'Z', '9', '-', '_', '~', '.', '/', '#', '?', ':', '%2e', '%', '\\', ' ', '\t', '\n', '..', '../', './', '//', 'é', '@', 'C|', '\u0000'];
  const hrefs = [''];
  for (let length = 0, from = 0; length < 3; length++) {
    const to = hrefs.length;
    for (let i = from; i < to; i++) for (const piece of pieces) hrefs.push(hrefs[i] + piece);
    from = to;
  }

  it('resolves every href as normalizeUrl does', () => {
    expect(hrefs.length).toBeGreaterThan(15_000);
    for (const b of bases) {
      const resolve = urlResolver(b);
      const differ = hrefs.filter((href) => resolve(href) !== normalizeUrl(href, b));
      expect({ base: b, differ }).toEqual({ base: b, differ: [] });
    }
  });

  it.each([
    ['a plain relative path', 'os.html#sec', 'http://www.example.com.cn/news/2010/os.html'],
    ['up two directories', '../../x/y.html', 'http://www.example.com.cn/x/y.html'],
    ['up past the root', '../../../../z.html', 'http://www.example.com.cn/z.html'],
    ['a leading ./', './x.html', 'http://www.example.com.cn/news/2010/x.html'],
    ['the directory itself', '../', 'http://www.example.com.cn/news/'],
    ['a root-relative path', '/finance/a.html#x', 'http://www.example.com.cn/finance/a.html'],
    ['a root-relative path up past the root', '/../a.html', 'http://www.example.com.cn/a.html'],
    ['the root itself', '/', 'http://www.example.com.cn/'],
  ])('%s', (_, href, expected) => {
    expect(urlResolver(base)(href)).toBe(expected);
    expect(normalizeUrl(href, base)).toBe(expected);
  });
});
