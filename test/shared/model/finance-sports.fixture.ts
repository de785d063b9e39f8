/**
 * 40 anchor texts, already cut into words (as the tokenizer would), alternating finance (label 1,
 * on topic, seed 000's domain) and sports (label 0). Written by hand to look like portal links:
 * both sides share the filler words (新闻, 最新, 今日, 视频, 更多, 专题) that carry no topic, and the
 * held-out anchors (pairs 7–9 and 17–19, see the test) reuse topic words of the training pairs
 * in new combinations, alongside words never seen in training.
 */
import type { FeatureVector } from '../../../shared/features/types.ts';
import type { Label, LabeledLink, Topic } from '../../../shared/model/types.ts';

const FINANCE = [
  '股票 行情 今日 收盘',
  '基金 净值 查询',
  '银行 利率 最新 调整',
  '上证 指数 午盘 上涨',
  '人民币 汇率 中间价',
  '理财 产品 收益 排行',
  '央行 降准 新闻',
  '银行 债券 专题',
  '股票 证券 公司 年报',
  '外汇 行情 视频',
  '股市 收盘 点评',
  '贷款 利率 下调',
  '基金 经理 访谈',
  '银行 理财 最新 产品',
  '股票 投资 更多',
  '上证 指数 收盘 新闻',
  '汇率 走势 分析',
  '债券 收益 今日',
  '央行 利率 政策 解读',
  '证券 市场 行情 视频',
];

const SPORTS = [
  '足球 比赛 今日 比分',
  '篮球 联赛 最新 战报',
  '球队 冠军 新闻',
  '网球 公开赛 决赛',
  '球员 转会 消息',
  '奥运 金牌 榜',
  '足球 联赛 积分 排行',
  '比赛 集锦 视频',
  '篮球 球员 数据',
  '世界杯 赛程 专题',
  '进球 集锦 更多',
  '球队 主教练 访谈',
  '冠军 赛 直播',
  '足球 球员 最新 转会',
  '网球 比赛 更多',
  '篮球 比赛 比分 新闻',
  '联赛 赛程 分析',
  '奥运 比赛 今日',
  '世界杯 球队 名单 解读',
  '足球 进球 集锦 视频',
];

export interface AnchorExample {
  anchor: string;
  label: Label;
}

/** Finance and sports alternating: pair p is (finance p, sports p) at positions 2p and 2p + 1. */
export const FINANCE_SPORTS: AnchorExample[] = FINANCE.flatMap((anchor, n) => [
  { anchor, label: 1 as Label },
  { anchor: SPORTS[n]!, label: 0 as Label },
]);

/** Feature group 1 (anchor words): `a:<word>` with its count. */
export function bagOf(anchor: string): FeatureVector {
  const bag: FeatureVector = new Map();
  for (const word of anchor.split(/\s+/).filter(Boolean)) bag.set(`a:${word}`, (bag.get(`a:${word}`) ?? 0) + 1);
  return bag;
}

/** A topic of finance links (feature group 1, Bernoulli), the model files' tests' topic. */
export const FINANCE_TOPIC: Topic = {
  id: 'finance',
  name: '财经',
  lexicon: ['股票', '基金'],
  positive: ['finance.example.com'],
  negative: [],
  threshold: 0.5,
  featureGroup: 1,
  form: 'bernoulli',
  window: 80,
};

/** The 40 anchors as labeled links of `FINANCE_TOPIC`, found on one portal page. */
export const FINANCE_LINKS: LabeledLink[] = FINANCE_SPORTS.map(({ anchor, label }, n) => ({
  url: `https://${label ? 'finance' : 'sports'}.example.com/${n}`,
  pageUrl: 'https://portal.example.com/',
  anchor: anchor.replaceAll(' ', ''),
  before: '',
  after: '',
  label,
  source: 'pattern',
  topic: FINANCE_TOPIC.id,
}));
