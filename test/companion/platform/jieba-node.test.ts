import * as jieba from 'jieba-wasm';
import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer, nodeChineseCutter } from '../../../companion/platform/jieba-node.ts';
import { STOPWORDS } from '../../../shared/tokens/stopwords.ts';

describe('jieba-node', () => {
  it('resolves the bare jieba-wasm import to its Node build, not the web build', () => {
    // The web build exports `initSync` and needs an async init before any cut.
    expect('initSync' in jieba).toBe(false);
    expect(typeof jieba.cut).toBe('function');
  });

  it('cuts synchronously with the real dictionary and HMM (no web-build init needed)', () => {
    expect(nodeChineseCutter('我们在北京大学学习金融市场和股票投资。')).toEqual([
      '我们', '在', '北京大学', '学习', '金融市场', '和', '股票投资', '。',
    ]);
  });

  it('loads a caching tokenizer, passing options through', () => {
    const tokenizer = loadNodeTokenizer({ stopwords: STOPWORDS, cacheSize: 10 });
    expect(tokenizer.cacheCapacity).toBe(10);
    expect(tokenizer.tokenize('我们的股票投资 Ｖ2.1')).toEqual(['股票投资', 'v2.1']);
  });

  it('gives separate tokenizers the same tokens for the same text', () => {
    const a = loadNodeTokenizer({ warm: false });
    const b = loadNodeTokenizer();
    const text = '上证指数收盘上涨，人民币汇率中间价 NBA体育新闻';
    expect(a.tokenize(text)).toEqual(b.tokenize(text));
    expect(a.tokenize(text)).toEqual(['上证指数', '收盘', '上涨', '人民币', '汇率', '中间价', 'nba', '体育新闻']);
  });
});
