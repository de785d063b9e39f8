import { describe, expect, it } from 'vitest';
import { compileScope, registrableDomain } from '../../../companion/crawl/url-scope.ts';

const seeds = ['https://news.example.com.cn/index.html', 'http://127.0.0.2:8471/'];

describe('compileScope', () => {
  it('lets every link through with scope any and no patterns', () => {
    expect(compileScope({ scope: 'any', allow: [], deny: [] }, seeds)).toBeUndefined();
  });

  it('seed-hosts keeps the seeds\' host names exactly', () => {
    const inScope = compileScope({ scope: 'seed-hosts', allow: [], deny: [] }, seeds)!;
    expect(inScope('https://news.example.com.cn/a')).toBe(true);
    expect(inScope('http://news.example.com.cn:8080/a')).toBe(true);
    expect(inScope('https://www.example.com.cn/a')).toBe(false);
    expect(inScope('http://127.0.0.2:9999/x')).toBe(true);
    expect(inScope('http://127.0.0.3:8471/x')).toBe(false);
  });

  it('seed-domains keeps the registrable domains (Public Suffix List), an IP being its own', () => {
    const inScope = compileScope({ scope: 'seed-domains', allow: [], deny: [] }, seeds)!;
    expect(inScope('https://www.example.com.cn/a')).toBe(true);
    expect(inScope('https://example.com.cn/')).toBe(true);
    expect(inScope('https://other.com.cn/')).toBe(false);
    expect(inScope('http://127.0.0.2:1/')).toBe(true);
    expect(inScope('http://127.0.0.3/')).toBe(false);
    expect(registrableDomain('a.b.sina.com.cn')).toBe('sina.com.cn');
    expect(registrableDomain('localhost')).toBe('localhost');
  });

  it('deny wins over allow, and allow narrows any scope', () => {
    const inScope = compileScope({ scope: 'any', allow: ['*/docs/*', 'python.org'], deny: ['*/docs/private/*'] }, seeds)!;
    expect(inScope('https://x.test/docs/a.html')).toBe(true);
    expect(inScope('https://www.python.org/about')).toBe(true);
    expect(inScope('https://x.test/docs/private/a.html')).toBe(false);
    expect(inScope('https://x.test/blog/a.html')).toBe(false);
  });

  it('names a bad scope or pattern', () => {
    expect(() => compileScope({ scope: 'site' as never, allow: [], deny: [] }, seeds)).toThrow('scope must be one of any, seed-hosts, seed-domains, got "site"');
    expect(() => compileScope({ scope: 'any', allow: [' '], deny: [] }, seeds)).toThrow(/URL pattern is empty/);
  });
});
