import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { urlTokens } from '../../../shared/features/url-tokens.ts';

const tokenizer = loadNodeTokenizer();

describe('urlTokens', () => {
  it('splits host labels and path segments, dropping boilerplate and pure numbers', () => {
    expect(urlTokens('https://www.hexun.com/2024/01/fund/index.html', tokenizer)).toEqual(['hexun', 'fund']);
    expect(urlTokens('http://money.163.com/special/default.aspx', tokenizer)).toEqual(['money', 'special']);
  });

  it('ignores user info, port, query and fragment; splits on any non-alphanumeric', () => {
    expect(urlTokens('http://user:pw@News.Example.org:8080/A_b-c.PHP?q=stock#top', tokenizer)).toEqual([
      'news', 'example', 'a', 'b', 'c',
    ]);
  });

  it('decodes percent-escapes and cuts Chinese path segments with jieba', () => {
    expect(urlTokens('https://example.net/%E8%82%A1%E7%A5%A8%E8%A1%8C%E6%83%85/list', tokenizer)).toEqual([
      'example', '股票行情', 'list',
    ]);
  });

  it('survives a malformed escape by keeping the raw segment', () => {
    expect(urlTokens('http://x.org/%E8%8/abc', tokenizer)).toEqual(['x', 'e8', 'abc']);
  });

  it('gives nothing for non-hierarchical URLs or an IPv6 host', () => {
    expect(urlTokens('mailto:someone@example.com', tokenizer)).toEqual([]);
    expect(urlTokens('javascript:void(0)', tokenizer)).toEqual([]);
    expect(urlTokens('http://[::1]:3000/news', tokenizer)).toEqual(['news']);
  });
});
