import { describe, expect, it } from 'vitest';
import { nodeChineseCutter } from '../../../companion/platform/jieba-node.ts';
import { STOPWORDS } from '../../../shared/tokens/stopwords.ts';
import { createTokenizer, normalizeText, RUN_CACHE_MAX_LENGTH, tokenCacheEntryBytes } from '../../../shared/tokens/tokenizer.ts';
import type { ChineseCutter } from '../../../shared/tokens/types.ts';

/** The real jieba cutter, with a record of what it was asked to cut (to see cache hits). */
function countingCutter(): { cut: ChineseCutter; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    cut: (text) => {
      calls.push(text);
      return nodeChineseCutter(text);
    },
  };
}

describe('normalizeText', () => {
  it('applies NFKC and lower case', () => {
    expect(normalizeText('ＡＢＣ１２３')).toBe('abc123');
    expect(normalizeText('Ⅻ ① ﬁ')).toBe('xii 1 fi');
    expect(normalizeText('Debian参考手册')).toBe('debian参考手册');
  });
});

describe('createTokenizer with the real jieba dictionary', () => {
  const tokenizer = createTokenizer({ cut: nodeChineseCutter });

  it('cuts a Chinese sentence into dictionary words and drops its punctuation', () => {
    expect(tokenizer.tokenize('我们在北京大学学习金融市场和股票投资。')).toEqual([
      '我们', '在', '北京大学', '学习', '金融市场', '和', '股票投资',
    ]);
  });

  it('splits mixed Chinese and Latin text at the script boundary', () => {
    expect(tokenizer.tokenize('Debian参考手册 v2.1')).toEqual(['debian', '参考手册', 'v2.1']);
    expect(tokenizer.tokenize('股票ABC基金')).toEqual(['股票', 'abc', '基金']);
    expect(tokenizer.tokenize('2010年上证指数收盘上涨')).toEqual(['2010', '年', '上证指数', '收盘', '上涨']);
  });

  it('normalises full-width forms', () => {
    expect(tokenizer.tokenize('ＡＢＣ')).toEqual(['abc']);
    expect(tokenizer.tokenize('Ｃ＋＋　ｎｏｄｅ．ｊｓ，ＮＢＡ')).toEqual(['c++', 'node.js', 'nba']);
  });

  it('keeps programming-language and dotted tokens whole, splits on other symbols', () => {
    expect(tokenizer.tokenize("c++ c# a+b e-mail don't node.js. snake_case a/b")).toEqual([
      'c++', 'c#', 'a', 'b', 'e-mail', "don't", 'node.js', 'snake_case', 'a', 'b',
    ]);
  });

  it('keeps words of other scripts, lower-cased', () => {
    expect(tokenizer.tokenize('«МОСКВА» カタカナ 한국어 Ελλάδα')).toEqual(['москва', 'カタカナ', '한국어', 'ελλάδα']);
  });

  it('gives no token for white space, punctuation or symbols', () => {
    expect(tokenizer.tokenize('—— ，。！？ ... *** &&& >> | ¥ © \u3000\n\t')).toEqual([]);
    expect(tokenizer.tokenize('')).toEqual([]);
    expect(tokenizer.tokenize('新浪财经-首页 >> 股票')).toEqual(['新浪', '财经', '首页', '股票']);
  });

  it('applies no stop words by default, and drops the given ones, normalised', () => {
    expect(tokenizer.tokenize('我们的股票 and the fund')).toEqual(['我们', '的', '股票', 'and', 'the', 'fund']);
    const filtered = createTokenizer({ cut: nodeChineseCutter, stopwords: STOPWORDS });
    expect(filtered.tokenize('我们的股票 and the fund')).toEqual(['股票', 'fund']);
    const custom = createTokenizer({ cut: nodeChineseCutter, stopwords: ['ＴＨＥ '] });
    expect(custom.tokenize('The fund')).toEqual(['fund']);
  });
});

describe('the token cache', () => {
  it('returns equal results without cutting again', () => {
    const { cut, calls } = countingCutter();
    const tokenizer = createTokenizer({ cut });
    const first = tokenizer.tokenize('股票行情 首页');
    const second = tokenizer.tokenize('股票行情 首页');
    expect(second).toEqual(first);
    expect(calls).toEqual(['股票行情', '首页']);
    expect(tokenizer.cacheSize).toBe(1);
  });

  it('cannot be corrupted through a returned array', () => {
    const tokenizer = createTokenizer({ cut: nodeChineseCutter });
    const first = tokenizer.tokenize('股票行情');
    first.push('injected');
    first[0] = 'changed';
    expect(tokenizer.tokenize('股票行情')).toEqual(['股票行情']);
  });

  it('is bounded and evicts the least recently used text', () => {
    const { cut, calls } = countingCutter();
    // The run cache off, so that jieba's calls show the text cache alone.
    const tokenizer = createTokenizer({ cut, cacheSize: 3, runCacheSize: 0 });
    for (const text of ['股票', '基金', '债券']) tokenizer.tokenize(text);
    tokenizer.tokenize('股票'); // now most recent; 基金 is the oldest
    for (const text of ['外汇', '期货', '黄金', '白银']) tokenizer.tokenize(text);
    expect(tokenizer.cacheSize).toBe(3);
    expect(tokenizer.cacheCapacity).toBe(3);
    calls.length = 0;
    tokenizer.tokenize('白银'); // cached
    tokenizer.tokenize('基金'); // evicted: cut again
    expect(calls).toEqual(['基金']);
  });

  it('defaults to 50,000 entries; 0 turns it off; long texts are not cached', () => {
    expect(createTokenizer({ cut: nodeChineseCutter }).cacheCapacity).toBe(50_000);
    const { cut, calls } = countingCutter();
    const off = createTokenizer({ cut, cacheSize: 0 });
    off.tokenize('股票');
    off.tokenize('股票');
    expect(calls).toEqual(['股票', '股票']);
    expect(off.cacheSize).toBe(0);

    const short = createTokenizer({ cut: nodeChineseCutter, cacheMaxLength: 4 });
    expect(short.tokenize('今日股票行情')).toEqual(['今日', '股票行情']);
    expect(short.cacheSize).toBe(0);
    short.tokenize('股票行情');
    expect(short.cacheSize).toBe(1);
  });

  it('is bounded by its estimated bytes too, whatever the count allows', () => {
    const { cut, calls } = countingCutter();
    const text = (n: number) => `第${'页'.repeat(20)}${n}`;
    const one = tokenCacheEntryBytes(text(0), createTokenizer({ cut, cacheSize: 0 }).tokenize(text(0)));
    const tokenizer = createTokenizer({ cut, cacheSize: 1_000, cacheBytes: 3 * one, runCacheSize: 0 }); // the text cache alone
    for (let n = 0; n < 10; n++) tokenizer.tokenize(text(n));
    expect(tokenizer.cacheSize).toBe(3);
    calls.length = 0;
    tokenizer.tokenize(text(9)); // among the newest three: cached
    tokenizer.tokenize(text(0)); // evicted: cut again
    expect(calls).toEqual([`第${'页'.repeat(20)}`]);
  });

  it("bounds the Han runs' cache by its estimated bytes as well", () => {
    const { cut, calls } = countingCutter();
    const runs = ['电子表格', '工作表格', '单元格式', '数据透视', '条件格式'];
    const one = tokenCacheEntryBytes(runs[0]!, cut(runs[0]!));
    const tokenizer = createTokenizer({ cut, cacheSize: 0, runCacheSize: 1_000, runCacheBytes: 2 * one });
    for (const run of runs) tokenizer.tokenize(run);
    calls.length = 0;
    tokenizer.tokenize(runs[4]!); // among the newest two: cached
    tokenizer.tokenize(runs[0]!); // evicted: cut again
    expect(calls).toEqual([runs[0]]);
  });

  it('estimates an entry from its text and tokens, growing with both', () => {
    const base = tokenCacheEntryBytes('股票', ['股票']);
    expect(tokenCacheEntryBytes('股票行情', ['股票', '行情'])).toBeGreaterThan(base);
    expect(tokenCacheEntryBytes('股票股票', ['股票'])).toBe(base + 4); // two more characters, two bytes each
  });

  it('rejects a capacity that is not a non-negative integer', () => {
    expect(() => createTokenizer({ cut: nodeChineseCutter, cacheSize: -1 })).toThrow(RangeError);
    expect(() => createTokenizer({ cut: nodeChineseCutter, cacheSize: 1.5 })).toThrow(RangeError);
    expect(() => createTokenizer({ cut: nodeChineseCutter, runCacheSize: -1 })).toThrow(RangeError);
  });
});

describe("the text cache's admission on the second sighting", () => {
  const texts = ['首页', 'Debian 参考手册 v2.1', '下一页', '首页', '软件包管理 apt-get', 'Debian 参考手册 v2.1', '首页', 'ＡＢＣ１２３ c++'];

  it('gives the very tokens of a tokenizer that caches every text, at every sighting', () => {
    const every = createTokenizer({ cut: nodeChineseCutter });
    const second = createTokenizer({ cut: nodeChineseCutter, cacheAdmission: 'second' });
    for (let round = 0; round < 3; round++) for (const text of texts) expect(second.tokenize(text)).toEqual(every.tokenize(text));
  });

  it('caches a text on its second sighting, and hits from the third on', () => {
    const { cut, calls } = countingCutter();
    const tokenizer = createTokenizer({ cut, cacheAdmission: 'second', runCacheSize: 0 });
    const first = tokenizer.tokensOf!('今日要闻');
    expect(tokenizer.cacheSize).toBe(0);
    const again = tokenizer.tokensOf!('今日要闻');
    expect(tokenizer.cacheSize).toBe(1);
    expect(again).toEqual(first);
    expect(calls).toEqual(['今日要闻', '今日要闻']);
    expect(tokenizer.tokensOf!('今日要闻')).toBe(again); // the cached array itself, nothing cut
    expect(calls).toHaveLength(2);
  });

  it('caches on the first sighting by default', () => {
    const tokenizer = createTokenizer({ cut: nodeChineseCutter });
    tokenizer.tokensOf!('今日要闻');
    expect(tokenizer.cacheSize).toBe(1);
  });
});

describe('the Han run cache', () => {
  it('cuts a run seen in another text only once', () => {
    const { cut, calls } = countingCutter();
    const tokenizer = createTokenizer({ cut });
    expect(tokenizer.tokenize('安装软件包 第1步')).toEqual(['安装', '软件包', '第', '1', '步']);
    // A text never seen, made of runs seen: no new cut for them.
    expect(tokenizer.tokenize('第2步，安装软件包')).toEqual(['第', '2', '步', '安装', '软件包']);
    expect(calls).toEqual(['安装软件包', '第', '步']);
  });

  it('gives the very tokens of a tokenizer without it, stop words included', () => {
    const texts = [
      '我们在北京大学学习金融市场和股票投资。',
      '新浪财经-首页 >> 股票 c++ 基金',
      '股票投资和基金 node.js 我们在北京',
      '北京大学的股票投资课程，我们在学习',
    ];
    const cached = createTokenizer({ cut: nodeChineseCutter, stopwords: ['和', '的'] });
    const plain = createTokenizer({ cut: nodeChineseCutter, stopwords: ['和', '的'], cacheSize: 0 });
    for (const text of [...texts, ...texts]) expect(cached.tokenize(text)).toEqual(plain.tokenize(text));
  });

  it('leaves long runs uncached, and is off with the text cache unless asked for', () => {
    const long = '中'.repeat(RUN_CACHE_MAX_LENGTH + 1);
    const { cut, calls } = countingCutter();
    const tokenizer = createTokenizer({ cut });
    tokenizer.tokenize(`${long} a`);
    tokenizer.tokenize(`${long} b`);
    expect(calls).toEqual([long, long]);

    const off = countingCutter();
    const none = createTokenizer({ cut: off.cut, cacheSize: 0 });
    none.tokenize('股票 a');
    none.tokenize('股票 b');
    expect(off.calls).toEqual(['股票', '股票']);

    const runsOnly = countingCutter();
    const runs = createTokenizer({ cut: runsOnly.cut, cacheSize: 0, runCacheSize: 10 });
    runs.tokenize('股票 a');
    runs.tokenize('股票 b');
    expect(runsOnly.calls).toEqual(['股票']);
  });
});

describe('eachToken', () => {
  const texts = ['首页', 'Debian 参考手册 v2.1', '下一页', '首页', '软件包管理 apt-get', 'Debian 参考手册 v2.1', '首页', 'ＡＢＣ１２３ c++', '中'.repeat(40)];
  const walked = (tokenizer: ReturnType<typeof createTokenizer>, text: string, prefix = 'c:') => {
    const out: string[] = [];
    tokenizer.eachToken!(text, prefix, (p, token) => out.push(p + token));
    return out;
  };

  it("hands the tokens of `tokenize` with the caller's prefix, at every sighting, whatever the admission", () => {
    const reference = createTokenizer({ cut: nodeChineseCutter, cacheSize: 0 });
    for (const cacheAdmission of ['first', 'second'] as const) {
      const tokenizer = createTokenizer({ cut: nodeChineseCutter, cacheAdmission, cacheMaxLength: 30 });
      for (let round = 0; round < 3; round++) {
        for (const text of texts) expect(walked(tokenizer, text)).toEqual(reference.tokenize(text).map((token) => `c:${token}`));
      }
    }
  });

  it('caches a text at the sighting `tokensOf` would: a walk counts as a sighting, once', () => {
    const tokenizer = createTokenizer({ cut: nodeChineseCutter, cacheAdmission: 'second' });
    walked(tokenizer, '今日要闻');
    expect(tokenizer.cacheSize).toBe(0);
    walked(tokenizer, '今日要闻');
    expect(tokenizer.cacheSize).toBe(1);
    expect(walked(tokenizer, '今日要闻')).toEqual(tokenizer.tokenize('今日要闻').map((token) => `c:${token}`));
  });

  it('hands a Han piece from the run cache with its id: one id per piece text, none for other tokens', () => {
    const tokenizer = createTokenizer({ cut: nodeChineseCutter, cacheAdmission: 'second' });
    const idsOf = new Map<string, Set<number>>();
    const textOf = new Map<number, string>();
    for (const text of ['股票基金 node.js', '今天股票 abc', '股票基金', '中'.repeat(40), '基金']) {
      tokenizer.eachToken!(text, 'c:', (_prefix, token, id) => {
        if (id === undefined) return;
        (idsOf.get(token) ?? idsOf.set(token, new Set()).get(token)!).add(id);
        expect(textOf.get(id) ?? token).toBe(token);
        textOf.set(id, token);
      });
    }
    // The same piece text has the same id in every run it came from; words and runs too long to cache have none.
    expect([...idsOf.keys()].sort()).toEqual(['今天', '基金', '股票']);
    for (const ids of idsOf.values()) expect(ids.size).toBe(1);
  });

  it('lets the callback tokenize other texts meanwhile', () => {
    const tokenizer = createTokenizer({ cut: nodeChineseCutter, cacheAdmission: 'second' });
    const out: string[] = [];
    tokenizer.eachToken!('股票 基金', 'a:', (prefix, token) => {
      out.push(prefix + token);
      tokenizer.eachToken!('北京 node.js', 'c:', (inner, other) => out.push(inner + other));
    });
    expect(out).toEqual(['a:股票', 'c:北京', 'c:node.js', 'a:基金', 'c:北京', 'c:node.js']);
  });
});
