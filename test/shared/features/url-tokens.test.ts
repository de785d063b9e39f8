import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { URL_NOISE_TOKENS, urlDirectories, urlTokens } from '../../../shared/features/url-tokens.ts';
import { seededRandom } from '../../../shared/random/seeded-random.ts';

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

  it('splits a file name as the rule says, ASCII or not: on anything but \\p{L} and \\p{N}, numbers dropped', () => {
    // The rule written out (a regular expression split, every piece tokenized), against random
    // file names of ASCII letters, digits and punctuation, with now and then a character beyond
    // ASCII (Han, accented, full-width digits and letters, Arabic-Indic digits, an emoji).
    const rule = (part: string) =>
      part
        .split(/[^\p{L}\p{N}]+/u)
        .filter((piece) => piece !== '')
        .flatMap((piece) => tokenizer.tokenize(piece))
        .filter((token) => !URL_NOISE_TOKENS.has(token) && !/^\p{N}+$/u.test(token));
    const random = seededRandom(14);
    const ascii = 'abcXYZ0123456789._-~!$&()*+,;:@\'';
    const beyond = ['股', '票', 'é', '１', 'Ａ', '٣', '🙂', 'ß', 'İ'];
    const pick = (chars: string | readonly string[]) => chars[Math.floor(random() * chars.length)]!;
    const head = urlTokens('https://x.test/', tokenizer);
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(random() * 14);
      let part = '';
      for (let i = 0; i < length; i++) part += random() < 0.08 ? pick(beyond) : pick(ascii);
      expect(urlTokens(`https://x.test/${part}`, tokenizer), part).toEqual([...head, ...rule(part)]);
    }
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

describe('urlTokens with the query (feature version 2)', () => {
  it('keeps the query words, and never an id, a hash or a number', () => {
    expect(urlTokens('http://127.0.0.2/help/text/scalc/01/04060101.html?DbPAR=CALC&System=UNIX#bm', tokenizer, { query: true })).toEqual([
      'help', 'text', 'scalc', 'dbpar', 'calc', 'system', 'unix',
    ]);
    expect(urlTokens('http://x.org/view?id=8812731&s=3f9a2c7e5b1d&q=A+股票', tokenizer, { query: true })).toEqual(['x', 'view', 'id', 's', 'q', 'a', '股票']);
    expect(urlTokens('http://x.org/p?DbPAR=CALC', tokenizer)).toEqual(['x', 'p']);
  });

  it('names nothing by an IP address', () => {
    expect(urlTokens('http://127.0.0.2:8471/usr/share/doc', tokenizer)).toEqual(['usr', 'share', 'doc']);
  });
});

describe('urlDirectories', () => {
  it('gives the domains from the top, then each directory above the file', () => {
    expect(urlDirectories('https://Finance.Sina.com.cn/stock/us/2024.shtml?x=1')).toEqual([
      'cn', 'com.cn', 'sina.com.cn', 'finance.sina.com.cn', 'finance.sina.com.cn/stock', 'finance.sina.com.cn/stock/us',
    ]);
  });

  it('takes an address as one host, and a URL ending in / as its own last directory', () => {
    expect(urlDirectories('http://127.0.0.2:8471/text/scalc/')).toEqual(['127.0.0.2', '127.0.0.2/text', '127.0.0.2/text/scalc']);
    expect(urlDirectories('http://[::1]:3000/a/b.html')).toEqual(['[::1]', '[::1]/a']);
  });

  it('gives nothing for a URL without a host, and stops at twelve directories', () => {
    expect(urlDirectories('mailto:someone@example.com')).toEqual([]);
    const deep = `http://x.org/${Array.from({ length: 20 }, (_, i) => `d${i}`).join('/')}/f.html`;
    expect(urlDirectories(deep)).toHaveLength(2 + 12);
  });
});
