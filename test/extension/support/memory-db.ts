/**
 * The extension's database on an in-memory fake-indexeddb of its own, for the extension's storage
 * and worker tests, and the jieba tokenizer as the Worker builds it (Node build of jieba-wasm here).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { cut } from 'jieba-wasm';
import { LinkScentDb } from '../../../extension/storage/database.ts';
import { createWorkerTokenizer } from '../../../extension/worker/worker-tokenizer.ts';
import type { Topic } from '../../../shared/model/types.ts';

/** An open database over its own fake-indexeddb (`factory`, or a fresh one: nothing shared). */
export async function memoryDb(factory: IDBFactory = new IDBFactory()): Promise<LinkScentDb> {
  const db = new LinkScentDb(undefined, { indexedDB: factory, IDBKeyRange });
  await db.open();
  return db;
}

export const tokenizer = createWorkerTokenizer((text) => cut(text, true));

export function topic(overrides: Partial<Topic> = {}): Topic {
  return {
    id: 'finance',
    name: '财经',
    lexicon: [],
    positive: ['finance.example.org'],
    negative: ['sport.example.org'],
    threshold: 0.5,
    featureGroup: 2,
    form: 'bernoulli',
    window: 80,
    ...overrides,
  };
}

export const FINANCE_ANCHORS = ['股票 市场 行情', '基金 投资 收益', '银行 利率 贷款', '股市 上涨 指数', '债券 基金 理财', '证券 交易 股票'];
export const SPORT_ANCHORS = ['足球 比赛 进球', '篮球 联赛 冠军', '网球 公开赛 决赛', '球队 教练 转会', '马拉松 跑步 选手', '排球 比赛 球员'];

/** Labeled examples as passive labeling makes them from a hub page. */
export function hubExamples(topicId: string, page = 'https://portal.example.net/') {
  const make = (anchor: string, i: number, label: 0 | 1) => ({
    url: `https://${label ? 'finance' : 'sport'}.example.org/${i}`,
    pageUrl: page,
    anchor,
    before: '',
    after: '',
    label,
    source: 'pattern' as const,
    topic: topicId,
  });
  return [...FINANCE_ANCHORS.map((a, i) => make(a, i, 1)), ...SPORT_ANCHORS.map((a, i) => make(a, i, 0))];
}
