import { describe, expect, it } from 'vitest';
import { compileUrlPattern, compileUrlPatterns, matchesAny, namedHost } from '../../../shared/urls/index.ts';

function matches(pattern: string, url: string): boolean {
  return compileUrlPattern(pattern)(url);
}

describe('compileUrlPattern: bare host names', () => {
  it('match the host and its subdomains under any scheme, port and path', () => {
    expect(matches('finance.sina.com.cn', 'http://finance.sina.com.cn/')).toBe(true);
    expect(matches('finance.sina.com.cn', 'https://finance.sina.com.cn/stock/a.shtml?x=1')).toBe(true);
    expect(matches('finance.sina.com.cn', 'http://www.finance.sina.com.cn/')).toBe(true);
    expect(matches('finance.sina.com.cn', 'http://finance.sina.com.cn:8080/x')).toBe(true);
  });

  it('do not match a longer host that merely ends with the same letters, or a parent domain', () => {
    expect(matches('finance.sina.com.cn', 'http://xfinance.sina.com.cn/')).toBe(false);
    expect(matches('finance.sina.com.cn', 'http://sina.com.cn/')).toBe(false);
    expect(matches('finance.sina.com.cn', 'http://example.com/finance.sina.com.cn')).toBe(false);
  });

  it('are case-insensitive and IDNA-aware', () => {
    expect(matches('Finance.SINA.com.cn', 'http://finance.sina.com.cn/')).toBe(true);
    expect(matches('例子.中国', 'http://www.xn--fsqu00a.xn--fiqs8s/a')).toBe(true);
  });

  it('never match a URL that does not parse', () => {
    expect(matches('example.org', 'not a url')).toBe(false);
  });
});

describe('compileUrlPattern: globs', () => {
  it('without a scheme match http and https', () => {
    expect(matches('money.163.com/*', 'http://money.163.com/10/0512/a.html')).toBe(true);
    expect(matches('money.163.com/*', 'https://money.163.com/')).toBe(true);
    expect(matches('money.163.com/*', 'ftp://money.163.com/x')).toBe(false);
    expect(matches('money.163.com/*', 'http://news.163.com/money.163.com/')).toBe(false);
  });

  it('with a scheme match that scheme only', () => {
    expect(matches('https://example.org/docs/*', 'https://example.org/docs/a/b?c=1')).toBe(true);
    expect(matches('https://example.org/docs/*', 'http://example.org/docs/a')).toBe(false);
    expect(matches('https://example.org/docs/*', 'https://example.org/docs')).toBe(false);
    expect(matches('*://example.org/*', 'http://example.org/x')).toBe(true);
  });

  it('match the whole URL, * matching any run including / and the empty run', () => {
    expect(matches('example.org/*/2010/*.html', 'http://example.org/news/finance/2010/0512.html')).toBe(true);
    expect(matches('example.org/*/2010/*.html', 'http://example.org/news/2010/0512.html?x')).toBe(false);
    expect(matches('example.org/a*b', 'http://example.org/ab')).toBe(true);
    expect(matches('example.org/a', 'http://example.org/a/b')).toBe(false);
  });

  it('with no path name hosts only and match every path there', () => {
    expect(matches('*.163.com', 'http://money.163.com/a/b')).toBe(true);
    expect(matches('*.163.com', 'http://163.com/')).toBe(false);
    expect(matches('https://example.org', 'https://example.org/any/path')).toBe(true);
  });

  it('compare the host part case-insensitively and the path case-sensitively', () => {
    expect(matches('Money.163.COM/News/*', 'http://money.163.com/News/a')).toBe(true);
    expect(matches('money.163.com/News/*', 'http://money.163.com/news/a')).toBe(false);
  });

  it('treat a port as part of the URL', () => {
    expect(matches('example.org/*', 'http://example.org:8080/x')).toBe(false);
    expect(matches('localhost:8080', 'http://localhost:8080/x')).toBe(true);
  });

  it('stay fast on a pathological glob (no regular-expression backtracking)', () => {
    const url = `http://example.org/${'a'.repeat(5000)}`;
    const started = performance.now();
    expect(matches('example.org/*a*a*a*a*a*a*a*a*a*b', url)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('compileUrlPattern: errors', () => {
  it.each(['', '   '])('throws a clear Error for the empty pattern %j', (pattern) => {
    expect(() => compileUrlPattern(pattern)).toThrow(/URL pattern is empty/);
  });

  it('throws for a host name the URL parser rejects', () => {
    expect(() => compileUrlPattern('exa mple.org')).toThrow(/not a valid host name/);
  });
});

describe('matchesAny and compileUrlPatterns', () => {
  it('OR their patterns', () => {
    const matchers = ['finance.sina.com.cn', 'money.163.com/*'].map(compileUrlPattern);
    expect(matchesAny('http://money.163.com/x', matchers)).toBe(true);
    expect(matchesAny('http://sports.163.com/x', matchers)).toBe(false);
    expect(matchesAny('http://x', [])).toBe(false);
    const combined = compileUrlPatterns(['finance.sina.com.cn', 'money.163.com/*']);
    expect(combined('http://finance.sina.com.cn/a')).toBe(true);
    expect(combined('http://sports.sina.com.cn/a')).toBe(false);
  });
});

describe('namedHost', () => {
  it.each([
    ['10.0.0.5', { host: '10.0.0.5', subdomains: true }],
    ['Intranet.LAN', { host: 'intranet.lan', subdomains: true }],
    ['http://intranet.lan:8080/docs/*', { host: 'intranet.lan', subdomains: false }],
    ['intranet.lan/docs/*', { host: 'intranet.lan', subdomains: false }],
    ['http://[::1]:8080/*', { host: '::1', subdomains: false }],
    ['https://127.0.0.1', { host: '127.0.0.1', subdomains: false }],
  ])('%s names %j', (pattern, named) => {
    expect(namedHost(pattern)).toEqual(named);
  });

  it.each(['*', '*.example.org', '*://*/*', 'http://*:8080/*', ''])('%j names no host: a wildcard names nothing', (pattern) => {
    expect(namedHost(pattern)).toBeUndefined();
  });
});
