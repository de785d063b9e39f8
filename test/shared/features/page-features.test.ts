import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { pageFeatures } from '../../../shared/features/page-features.ts';

const tokenizer = loadNodeTokenizer();

describe('pageFeatures', () => {
  it('namespaces tokens by zone: title, keywords + description, body', () => {
    expect(
      pageFeatures(
        { title: '股票行情', keywords: '股票,基金', description: '新浪财经', text: '今日股票行情 上涨 上涨' },
        tokenizer,
      ),
    ).toEqual(
      new Map([
        ['t:股票行情', 1],
        ['k:股票', 1],
        ['k:基金', 1],
        ['k:新浪', 1],
        ['k:财经', 1],
        ['b:今日', 1],
        ['b:股票行情', 1],
        ['b:上涨', 2],
      ]),
    );
  });

  it('treats missing meta zones as empty', () => {
    expect(pageFeatures({ title: '', text: '基金' }, tokenizer)).toEqual(new Map([['b:基金', 1]]));
  });
});
