import { describe, expect, it, vi } from 'vitest';
import { NB_DEFAULTS, nbCrawl } from '../../../companion/crawl/nb-crawl.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { Topic } from '../../../shared/model/types.ts';
import { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';

const topic: Topic = {
  id: 'stocks', name: 'stocks', lexicon: ['股票'], positive: ['http://a.test/stock/*'], negative: [],
  threshold: 0.5, featureGroup: 2, form: 'mixed', window: 20, urlTokens: true,
};

describe('nbCrawl', () => {
  it('online learning learns from a claimed link\'s features as the strategy listed them at the claim, the same vector featuresOf builds', () => {
    const model = new NaiveBayes({ form: 'mixed' });
    const scorer = LinkScorer.forTopic(topic, model, loadNodeTokenizer());
    model.add(scorer.featuresOf({ url: 'http://a.test/stock/1.html', pageUrl: 'http://a.test/', anchor: '股票 行情', before: '', after: '' }), 1);
    model.add(scorer.featuresOf({ url: 'http://a.test/sports/1.html', pageUrl: 'http://a.test/', anchor: '体育 频道', before: '', after: '' }), 0);
    const { strategy, options } = nbCrawl({ topic, scorer, fingerprint: 'f' }, NB_DEFAULTS, false, () => {});
    const features = options.online!.models.features;
    const listed = vi.spyOn(scorer, 'listFeatures');
    const claimed: LinkContext = { url: 'http://a.test/stock/2.html', pageUrl: 'http://a.test/', anchor: '股票 基金 股票', before: '今日', after: '行情' };
    strategy.linkLogOdds!(claimed);
    expect(listed).toHaveBeenCalledTimes(1);
    expect([...features(claimed)]).toEqual([...scorer.featuresOf(claimed)]);
    expect(listed).toHaveBeenCalledTimes(1);
    // A link the strategy kept nothing of: built as before.
    const other: LinkContext = { ...claimed, url: 'http://a.test/stock/3.html' };
    expect([...features(other)]).toEqual([...scorer.featuresOf(other)]);
  });
});
