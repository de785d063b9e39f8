import { describe, expect, it } from 'vitest';
import { normalizeUrl, urlHost } from '../../../shared/urls/index.ts';

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
