/**
 * Pipeline benchmark: the shared link-scent pipeline on a real Chinese HTML corpus (Debian's
 * Chinese documentation packages, bench/data/sites, ≈ 3,500 pages), measured in one process:
 *
 *   (a) pages/s and link contexts/s end to end: segmentsFromHtml → LinkScorer.contexts →
 *       LinkScorer.score per link (tokens + features → Naive Bayes), as the nb crawl strategy
 *       runs it, next to the pages/s jieba's raw `cut` alone reaches on those pages' texts;
 *   (b) the time split by stage, each stage run over the whole corpus on its own;
 *   (c) the shared tokenizer's MB/s (cache off, cold, warm) next to jieba-wasm's raw `cut` on
 *       exactly the same texts (every anchor and context the pipeline tokenizes);
 *   (d) heap and RSS: after loading, after the runs, growth across passes, the token cache.
 *
 * Every figure is the median of `LINKSCENT_BENCH_REPS` (default 5) timed repetitions after one
 * untimed warm-up; variants are interleaved within a repetition so drift hits them alike. The
 * model is real: Naive Bayes (Bernoulli, feature group 2, W = 80) trained on the links of a
 * seeded 30 % of the pages, labelled by URL pattern (topic: spreadsheets, i.e. links into the
 * LibreOffice Calc help), and checked on the other 70 %, so the scores vary as in a crawl.
 *
 * Run: `npm run bench -- pipeline`, or `node --expose-gc --import tsx bench/pipeline-bench.ts`.
 * With `LINKSCENT_BENCH_JSON=<file>` the figures are also written there as JSON.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Parser } from 'htmlparser2';
import { cut } from 'jieba-wasm';
import { dedupeExamples, evaluateLinkModel, reportOf, trainLinkModel } from '../companion/training/link-training.ts';
import { seededShuffle } from '../shared/random/seeded-random.ts';
import { loadNodeTokenizer, nodeChineseCutter } from '../companion/platform/jieba-node.ts';
import type { LinkContext } from '../shared/contexts/types.ts';
import { extractContexts } from '../shared/contexts/extract-contexts.ts';
import type { FeatureOptions, FeatureVector } from '../shared/features/types.ts';
import { linkFeatures } from '../shared/features/link-features.ts';
import type { NaiveBayes } from '../shared/model/naive-bayes.ts';
import type { LabeledLink } from '../shared/model/types.ts';
import { TOPIC_DEFAULTS } from '../shared/model/topic-defaults.ts';
import { LinkScorer } from '../shared/pipeline/link-scorer.ts';
import { segmentsFromHtml } from '../shared/segments/from-html.ts';
import type { PageSegments } from '../shared/segments/types.ts';
import { LruCache } from '../shared/tokens/lru-cache.ts';
import {
  createTokenizer,
  DEFAULT_TOKEN_CACHE_BYTES,
  DEFAULT_TOKEN_CACHE_MAX_LENGTH,
  DEFAULT_TOKEN_CACHE_SIZE,
  normalizeText,
  tokenCacheEntryBytes,
  type CachingTokenizer,
} from '../shared/tokens/tokenizer.ts';
import { compileUrlPatterns } from '../shared/urls/url-pattern.ts';
import { CHINESE_PACKAGES, corpusProblem, loadCorpus, siteHost, type Corpus } from './support/corpus.ts';
import {
  collectGarbage,
  fmt,
  fmtMbDelta,
  mb,
  memorySnapshot,
  peakRss,
  summarize,
  table,
  timeMs,
  type MemorySnapshot,
  type Summary,
} from './support/measure.ts';

/** The issue's floor: the corpus must hold at least this many pages. */
const REPS = positiveInteger(process.env.LINKSCENT_BENCH_REPS, 5);
const WARMUP = 1;
const WINDOW = TOPIC_DEFAULTS.window;
const TRAIN_FRACTION = 0.3;
const SPLIT_SEED = 20_101;

/** The topic: spreadsheets. On topic = a link into LibreOffice Calc's help. */
const TOPIC = {
  name: 'spreadsheets (LibreOffice Calc help)',
  positive: [`${siteHost('libreoffice-help-zh-cn')}/*/text/scalc/*`],
  lexicon: ['电子表格', '工作表', '单元格', '公式', '函数', 'calc'],
};
const FEATURES: FeatureOptions = { group: 2, lexicon: TOPIC.lexicon, urlTokens: false };

function positiveInteger(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

function freshTokenizer(options: { cacheSize?: number } = {}): CachingTokenizer {
  return createTokenizer({ cut: nodeChineseCutter, ...options });
}

const utf8 = new TextEncoder();
function utf8Bytes(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) bytes += utf8.encode(text).length;
  return bytes;
}

/** Keeps results observable so the optimiser cannot drop the work. */
let sink = 0;

// ---------------------------------------------------------------------------------------------
// Setup: corpus, jieba, model.

/** The corpus, or one line and exit 1 when it is not the expected one (`corpusProblem`). */
function loadOrExit(): Corpus {
  const corpus = loadCorpus();
  const found = new Map([...corpus.sites].map(([site, stats]) => [site, stats.pages]));
  const problem = corpusProblem('pipeline-bench', [...new Set([...CHINESE_PACKAGES, ...found.keys()])], found);
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
  return corpus;
}

function hanShare(texts: readonly string[]): number {
  let han = 0;
  let letters = 0;
  for (const text of texts) {
    han += text.match(/\p{Script=Han}/gu)?.length ?? 0;
    letters += text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  }
  return letters === 0 ? 0 : han / letters;
}

interface Trained {
  model: NaiveBayes;
  trainPages: number;
  examples: number;
  positives: number;
  duplicates: number;
  conflicts: number;
  heldOut: ReturnType<typeof reportOf>;
  meanP: { positive: number; negative: number };
}

/** Trains the topic's model on a seeded 30 % of pages with its own tokenizer (the bench's stay cold). */
function trainModel(segments: readonly PageSegments[]): Trained {
  const isPositive = compileUrlPatterns(TOPIC.positive);
  const order = seededShuffle(
    segments.map((_, index) => index),
    SPLIT_SEED,
  );
  const cutAt = Math.round(order.length * TRAIN_FRACTION);
  const examplesOf = (indices: readonly number[]): LabeledLink[] =>
    indices.flatMap((index) =>
      extractContexts(segments[index]!, { window: WINDOW }).map((context) => ({
        ...context,
        label: isPositive(context.url) ? 1 : 0,
        source: 'pattern' as const,
        topic: 'spreadsheets',
      })),
    );
  const train = dedupeExamples(examplesOf(order.slice(0, cutAt)));
  const test = dedupeExamples(examplesOf(order.slice(cutAt))).examples;
  const tokenizer = loadNodeTokenizer();
  const model = trainLinkModel(train.examples, tokenizer, FEATURES, 'bernoulli');
  const heldOut = reportOf(evaluateLinkModel(model, test, tokenizer, FEATURES, 0.5));
  const sums = { positive: [0, 0], negative: [0, 0] };
  for (const example of test) {
    const side = example.label === 1 ? sums.positive : sums.negative;
    side[0]! += model.score(linkFeatures(example, tokenizer, FEATURES), 0).p;
    side[1]! += 1;
  }
  return {
    model,
    trainPages: cutAt,
    examples: train.examples.length,
    positives: train.examples.filter((example) => example.label === 1).length,
    duplicates: train.duplicates,
    conflicts: train.conflicts,
    heldOut,
    meanP: { positive: sums.positive[0]! / sums.positive[1]!, negative: sums.negative[0]! / sums.negative[1]! },
  };
}

// ---------------------------------------------------------------------------------------------
// The measured passes.

/**
 * (a) End to end, as the companion's nb crawl strategy does it (`scorer.contexts(page)`, then
 * `scorer.score(link).p` per link): HTML string → segments → contexts → features → score.
 */
function endToEnd(corpus: Corpus, scorer: LinkScorer): number {
  let links = 0;
  for (const page of corpus.pages) {
    const contexts = scorer.contexts(segmentsFromHtml(page.html, page.url));
    links += contexts.length;
    for (const context of contexts) sink += scorer.score(context).p;
  }
  return links;
}

/** (b) For scale: htmlparser2 alone over every page, with handlers that do nothing. */
function htmlparserOnly(corpus: Corpus): void {
  const handlers = {
    onopentag(name: string) {
      sink += name.length;
    },
    ontext(data: string) {
      sink += data.length;
    },
  };
  for (const page of corpus.pages) {
    // The options segmentsFromHtml uses.
    new Parser(handlers, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).end(page.html);
  }
}

interface StageTimes {
  segments: number;
  contexts: number;
  features: number;
  score: number;
}

/** (b) Each stage over the whole corpus, its output kept for the next. */
function stagePasses(corpus: Corpus, model: NaiveBayes): StageTimes {
  const tokenizer = freshTokenizer();
  let segments: PageSegments[] = [];
  let contexts: LinkContext[][] = [];
  let vectors: FeatureVector[] = [];
  const times: StageTimes = {
    segments: timeMs(() => {
      segments = corpus.pages.map((page) => segmentsFromHtml(page.html, page.url));
    }),
    contexts: timeMs(() => {
      contexts = segments.map((page) => extractContexts(page, { window: WINDOW }));
    }),
    features: timeMs(() => {
      vectors = contexts.flatMap((page) => page.map((context) => linkFeatures(context, tokenizer, FEATURES)));
    }),
    score: timeMs(() => {
      for (const vector of vectors) sink += model.score(vector).p;
    }),
  };
  return times;
}

/** (c) One pass of `tokenize` over the texts. */
function tokenizePass(tokenizer: CachingTokenizer, texts: readonly string[]): void {
  for (const text of texts) sink += tokenizer.tokenize(text).length;
}

/** (c) jieba-wasm's `cut(text, true)` on each text as it is: the raw baseline. */
function rawCutPass(texts: readonly string[]): void {
  for (const text of texts) sink += cut(text, true).length;
}

const HAN_RUN = /\p{Script=Han}+/gu;

/** The Han runs of the normalised texts: exactly the strings the tokenizer hands to `cut`. */
function hanRunsOf(texts: readonly string[]): string[] {
  const runs: string[] = [];
  for (const text of texts) for (const match of normalizeText(text).matchAll(HAN_RUN)) runs.push(match[0]);
  return runs;
}

/**
 * Lookups and hits the tokenizer's LRU cache sees over `passes` passes (its exact eviction rule,
 * by count and by estimated bytes, replayed without tokenizing: each text weighs what its tokens
 * from `tokensOf` make it weigh).
 */
function cacheReplay(texts: readonly string[], passes: number, tokensOf: ReadonlyMap<string, readonly string[]>): { lookups: number; hits: number; lastPassHits: number } {
  const cache = new LruCache<string, true>(DEFAULT_TOKEN_CACHE_SIZE, {
    maxWeight: DEFAULT_TOKEN_CACHE_BYTES,
    weigh: (text) => tokenCacheEntryBytes(text, tokensOf.get(text) ?? []),
  });
  let lookups = 0;
  let hits = 0;
  let lastPassHits = 0;
  for (let pass = 0; pass < passes; pass++) {
    lastPassHits = 0;
    for (const text of texts) {
      if (text.length > DEFAULT_TOKEN_CACHE_MAX_LENGTH) continue;
      lookups++;
      if (cache.get(text) !== undefined) {
        hits++;
        lastPassHits++;
      } else cache.set(text, true);
    }
  }
  return { lookups, hits, lastPassHits };
}

/** Heap and RSS one full token cache takes: a fresh tokenizer filled by one pass, kept alive while measured. */
function tokenCacheMemory(texts: readonly string[]): { heap: number; rss: number; entries: number } {
  const before = memorySnapshot();
  const tokenizer = freshTokenizer();
  tokenizePass(tokenizer, texts);
  const after = memorySnapshot();
  return { heap: after.heapUsed - before.heapUsed, rss: after.rss - before.rss, entries: tokenizer.cacheSize };
}

// ---------------------------------------------------------------------------------------------

interface Variant {
  name: string;
  run: () => void;
}

/** Heap in use after a forced collection at the start of each round (warm-up included). */
const heapPerRound = new Map<string, number[]>();

/**
 * Warm-up then `REPS` interleaved repetitions; milliseconds per variant, summarised. The heap
 * after a full GC before each round is kept under `label` in `heapPerRound`: it should stay
 * flat across rounds (no leak), apart from caches a variant keeps on purpose.
 */
function measure(label: string, variants: readonly Variant[]): Map<string, Summary> {
  const runs = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  const heaps: number[] = [];
  heapPerRound.set(label, heaps);
  for (let rep = -WARMUP; rep < REPS; rep++) {
    collectGarbage();
    heaps.push(process.memoryUsage().heapUsed);
    for (const variant of variants) {
      collectGarbage();
      const ms = timeMs(variant.run);
      if (rep >= 0) runs.get(variant.name)!.push(ms);
    }
  }
  return new Map([...runs].map(([name, values]) => [name, summarize(values)]));
}

function spread(summary: Summary): string {
  return `${fmt(summary.min, 3)}–${fmt(summary.max, 3)}`;
}

function main(): void {
  const startedAt = new Date();
  const say = (text = '') => console.log(text);
  const memoryStart = memorySnapshot();
  const corpus = loadOrExit();
  const memoryLoaded = memorySnapshot();
  const pages = corpus.pages.length;
  const htmlMb = mb(corpus.totalBytes);
  const perSecond = (count: number, ms: number) => (count * 1000) / ms;
  const get = (map: Map<string, Summary>, name: string): Summary => map.get(name)!;

  const jiebaStarted = process.hrtime.bigint();
  loadNodeTokenizer(); // builds jieba's dictionary once per process
  const jiebaMs = Number(process.hrtime.bigint() - jiebaStarted) / 1e6;

  // Untimed: every page's segments and contexts once, for training and for the tokenizer texts.
  const segments = corpus.pages.map((page) => segmentsFromHtml(page.html, page.url));
  const contexts = segments.map((page) => extractContexts(page, { window: WINDOW }));
  const contextCount = contexts.reduce((sum, page) => sum + page.length, 0);
  const texts = contexts.flatMap((page) => page.flatMap((c) => [c.anchor, c.before, c.after])).filter((t) => t !== '');
  const textBytes = utf8Bytes(texts);
  const hanRuns = hanRunsOf(texts);
  const hanRunBytes = utf8Bytes(hanRuns);
  const distinctTexts = new Set(texts).size;
  const trained = trainModel(segments);
  const memoryTrained = memorySnapshot();

  say(`pipeline-bench: segments → contexts → features → score on real Chinese HTML (${startedAt.toISOString()})`);
  say(
    `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ` +
      `${REPS} timed repetitions after ${WARMUP} warm-up, figures are medians (min–max)`,
  );
  say();
  say(`Corpus: ${pages} pages, ${fmt(htmlMb, 4)} MB of HTML (${corpus.totalBytes.toLocaleString('en-US')} bytes) from ${corpus.sites.size} packages, read and decoded in ${fmt(corpus.loadMs, 3)} ms`);
  say(`  charset: ${[...corpus.charsets].map(([key, n]) => `${key} ${n}`).join(', ')}`);
  say(
    table([
      ['package', 'pages', 'MB'],
      ...[...corpus.sites].map(([site, stats]) => [site, String(stats.pages), fmt(mb(stats.bytes), 3)]),
    ]),
  );
  say(`Link contexts: ${contextCount.toLocaleString('en-US')} (${fmt(contextCount / pages, 3)} per page); W = ${WINDOW}`);
  say(
    `Tokenized text: ${texts.length.toLocaleString('en-US')} non-empty anchors and contexts, ${fmt(mb(textBytes), 4)} MB UTF-8, ` +
      `${distinctTexts.toLocaleString('en-US')} distinct; Han ${fmt(100 * hanShare(texts), 3)} % of letters and digits`,
  );
  say(`jieba-wasm dictionary build (first cut, once per process): ${fmt(jiebaMs, 3)} ms`);
  say();
  say(`Model: topic ${TOPIC.name}; positive URL pattern ${TOPIC.positive.join(', ')}`);
  say(
    `  Bernoulli NB, feature group 2 + lexicon (${TOPIC.lexicon.join(' ')}); trained on the links of ${trained.trainPages} pages (seed ${SPLIT_SEED}): ` +
      `${trained.examples.toLocaleString('en-US')} examples (${trained.positives.toLocaleString('en-US')} positive; ${trained.duplicates.toLocaleString('en-US')} duplicate contexts dropped), ` +
      `vocabulary ${trained.model.vocabularySize.toLocaleString('en-US')}`,
  );
  say(
    `  held-out links of the other ${pages - trained.trainPages} pages: n ${trained.heldOut.n}, precision ${trained.heldOut.precision}, recall ${trained.heldOut.recall}, ` +
      `F1 ${trained.heldOut.f1}, AUC ${trained.heldOut.auc}; mean P(+) ${fmt(trained.meanP.positive, 3)} on positives vs ${fmt(trained.meanP.negative, 3)} on negatives`,
  );
  say();

  // ---- (a) end to end -------------------------------------------------------------------------
  const keptScorer = new LinkScorer({ tokenizer: freshTokenizer(), model: trained.model, features: FEATURES, window: WINDOW });
  let e2eLinks = 0;
  const pipeline = measure('end to end', [
    {
      name: 'fresh',
      run: () => {
        const scorer = new LinkScorer({ tokenizer: freshTokenizer(), model: trained.model, features: FEATURES, window: WINDOW });
        e2eLinks = endToEnd(corpus, scorer);
      },
    },
    { name: 'kept', run: () => endToEnd(corpus, keptScorer) },
    { name: 'raw-cut', run: () => rawCutPass(texts) },
    { name: 'htmlparser2', run: () => htmlparserOnly(corpus) },
  ]);
  const fresh = get(pipeline, 'fresh');
  const kept = get(pipeline, 'kept');
  const rawE2e = get(pipeline, 'raw-cut');
  say('(a) End to end: HTML string → segmentsFromHtml → LinkScorer.contexts → LinkScorer.score per link (as the nb crawl strategy)');
  say(
    table([
      ['pass', 'ms', 'min–max', 'pages/s', 'contexts/s', 'HTML MB/s'],
      ...(
        [
          ['token cache fresh each pass', fresh],
          ['token cache kept across passes', kept],
        ] as const
      ).map(([name, summary]) => [
        name,
        fmt(summary.median, 4),
        spread(summary),
        fmt(perSecond(pages, summary.median), 4),
        fmt(perSecond(e2eLinks, summary.median), 4),
        fmt(perSecond(htmlMb, summary.median), 3),
      ]),
      [
        'jieba-wasm raw cut of those pages\' texts',
        fmt(rawE2e.median, 4),
        spread(rawE2e),
        fmt(perSecond(pages, rawE2e.median), 4),
        fmt(perSecond(e2eLinks, rawE2e.median), 4),
        '',
      ],
    ]),
  );
  say(
    `  vs raw cut (pages/s ÷ raw cut's pages/s on the same anchors and contexts): fresh ${fmt(rawE2e.median / fresh.median, 3)}×, kept ${fmt(rawE2e.median / kept.median, 3)}×`,
  );
  say();

  // ---- (b) stages -----------------------------------------------------------------------------
  const stageRuns: StageTimes[] = [];
  for (let rep = -WARMUP; rep < REPS; rep++) {
    collectGarbage();
    const times = stagePasses(corpus, trained.model);
    if (rep >= 0) stageRuns.push(times);
  }
  const memoryPipeline = memorySnapshot();
  const stage = (key: keyof StageTimes) => summarize(stageRuns.map((times) => times[key]));
  const stages = { segments: stage('segments'), contexts: stage('contexts'), features: stage('features'), score: stage('score') };
  const stageSum = Object.values(stages).reduce((sum, s) => sum + s.median, 0);
  say('(b) Stages, each over the whole corpus on its own (fresh token cache per repetition)');
  say(
    table([
      ['stage', 'ms', 'min–max', 'share', 'µs/page', 'µs/context'],
      ...(
        [
          ['segments (htmlparser2 + SegmentBuilder)', stages.segments],
          ['contexts (extractContexts)', stages.contexts],
          ['tokens + features (linkFeatures)', stages.features],
          ['score (NaiveBayes.score, explain top 8)', stages.score],
        ] as const
      ).map(([name, s]) => [
        name,
        fmt(s.median, 4),
        spread(s),
        `${fmt((100 * s.median) / stageSum, 3)} %`,
        fmt((1000 * s.median) / pages, 4),
        fmt((1000 * s.median) / contextCount, 3),
      ]),
      ['sum of stages', fmt(stageSum, 4), '', '100 %', fmt((1000 * stageSum) / pages, 4), fmt((1000 * stageSum) / contextCount, 3)],
    ]),
  );
  const parserOnly = get(pipeline, 'htmlparser2');
  say(
    `  for scale: htmlparser2 alone (no-op handlers, same options) ${fmt(parserOnly.median, 4)} ms (${spread(parserOnly)}), ` +
      `${fmt(perSecond(htmlMb, parserOnly.median), 3)} MB/s: ${fmt((100 * parserOnly.median) / stages.segments.median, 3)} % of the segments stage`,
  );
  say();

  // ---- (c) tokenizer --------------------------------------------------------------------------
  const warmTokenizer = freshTokenizer();
  tokenizePass(warmTokenizer, texts); // filled once; every measured pass below is on a full cache
  const tokenizer = measure('tokenizer', [
    { name: 'raw-cut', run: () => rawCutPass(texts) },
    { name: 'cache-off', run: () => tokenizePass(freshTokenizer({ cacheSize: 0 }), texts) },
    { name: 'cold', run: () => tokenizePass(freshTokenizer(), texts) },
    { name: 'warm', run: () => tokenizePass(warmTokenizer, texts) },
    { name: 'han-runs-cut', run: () => rawCutPass(hanRuns) },
    { name: 'no-cut', run: () => tokenizePass(createTokenizer({ cut: () => [], cacheSize: 0 }), texts) },
    {
      name: 'normalize',
      run: () => {
        for (const text of texts) sink += normalizeText(text).length;
      },
    },
  ]);
  const untimed = freshTokenizer({ cacheSize: 0 });
  const tokensOf = new Map<string, readonly string[]>();
  for (const text of texts) if (!tokensOf.has(text)) tokensOf.set(text, untimed.tokenize(text));
  const replayWarm = cacheReplay(texts, 2, tokensOf);
  const replayCold = cacheReplay(texts, 1, tokensOf);
  const raw = get(tokenizer, 'raw-cut');
  const tokenizerRow = (name: string, s: Summary): string[] => [
    name,
    fmt(s.median, 4),
    spread(s),
    fmt(perSecond(mb(textBytes), s.median), 3),
    `${fmt(raw.median / s.median, 3)}×`,
  ];
  say(
    `(c) Tokenizer on the same ${fmt(mb(textBytes), 4)} MB (${texts.length.toLocaleString('en-US')} texts: every non-empty anchor and context above), MB = 10^6 bytes of UTF-8 input`,
  );
  say(
    table([
      ['tokenizer', 'ms', 'min–max', 'MB/s', 'vs raw cut'],
      tokenizerRow('jieba-wasm cut(text, true), raw, per text', raw),
      tokenizerRow('shared tokenizer, cache off (cacheSize 0)', get(tokenizer, 'cache-off')),
      tokenizerRow('shared tokenizer, cold (empty cache, one pass)', get(tokenizer, 'cold')),
      tokenizerRow('shared tokenizer, warm (cache filled by a pass)', get(tokenizer, 'warm')),
    ]),
  );
  say('  where the cache-off time goes (MB/s of the same 5.8 MB, so the rows compare):'.replace('5.8', fmt(mb(textBytes), 2)));
  say(
    table([
      ['part', 'ms', 'min–max', 'MB/s', 'vs raw cut'],
      tokenizerRow('normalizeText (NFKC + lower case) alone', get(tokenizer, 'normalize')),
      tokenizerRow('tokenizer with a no-op cut, cache off (normalise, split, filter)', get(tokenizer, 'no-cut')),
      tokenizerRow(`jieba cut of the Han runs only (${hanRuns.length.toLocaleString('en-US')} calls, ${fmt(mb(hanRunBytes), 3)} MB)`, get(tokenizer, 'han-runs-cut')),
    ]),
  );
  say(
    `  token cache: capacity ${DEFAULT_TOKEN_CACHE_SIZE.toLocaleString('en-US')} entries and ${fmt(DEFAULT_TOKEN_CACHE_BYTES / 2 ** 20, 3)} MiB (estimated), ${warmTokenizer.cacheSize.toLocaleString('en-US')} entries after a pass; ` +
      `hit rate cold ${fmt((100 * replayCold.hits) / replayCold.lookups, 3)} %, warm ${fmt((100 * replayWarm.lastPassHits) / replayCold.lookups, 3)} % (the LRU replayed)`,
  );
  say();

  // ---- (d) memory -----------------------------------------------------------------------------
  const cacheMemory = tokenCacheMemory(texts);
  const memoryAfterTokenizer = memorySnapshot();
  const peak = peakRss();
  say('(d) Memory, each point after a forced GC (RSS includes jieba-wasm\'s linear memory)');
  const memoryRow = (name: string, m: MemorySnapshot): string[] => [name, fmt(mb(m.heapUsed), 4), fmt(mb(m.rss), 4), fmt(mb(m.external), 4)];
  say(
    table([
      ['point', 'heap MB', 'RSS MB', 'external MB'],
      memoryRow('process start', memoryStart),
      memoryRow('corpus loaded (decoded strings)', memoryLoaded),
      memoryRow('+ jieba dictionary, segments, model', memoryTrained),
      memoryRow('after the end-to-end and stage runs', memoryPipeline),
      memoryRow('after the tokenizer runs', memoryAfterTokenizer),
    ]),
  );
  say(
    `  growth: corpus ${fmtMbDelta(memoryLoaded.heapUsed - memoryStart.heapUsed)} heap / ${fmtMbDelta(memoryLoaded.rss - memoryStart.rss)} RSS; ` +
      `jieba + model + kept segments ${fmtMbDelta(memoryTrained.heapUsed - memoryLoaded.heapUsed)} heap / ${fmtMbDelta(memoryTrained.rss - memoryLoaded.rss)} RSS; ` +
      `runs ${fmtMbDelta(memoryPipeline.heapUsed - memoryTrained.heapUsed)} heap / ${fmtMbDelta(memoryPipeline.rss - memoryTrained.rss)} RSS`,
  );
  say(
    `  one full token cache (${cacheMemory.entries.toLocaleString('en-US')} entries): ${fmtMbDelta(cacheMemory.heap)} heap, ${fmtMbDelta(cacheMemory.rss)} RSS`,
  );
  for (const [label, heaps] of heapPerRound) {
    say(
      `  heap before each ${label} round, warm-up → last: ${heaps.map((heap) => fmt(mb(heap), 4)).join(' → ')} MB ` +
        `(${fmtMbDelta(heaps.at(-1)! - heaps[0]!)}; a kept cache fills in the warm-up, then it should stay flat)`,
    );
  }
  say(`  peak RSS ${fmt(mb(peak), 4)} MB; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (sink === 0) say('(warning: every result summed to zero)');

  const json = process.env.LINKSCENT_BENCH_JSON;
  if (json) {
    const figures = {
      bench: 'pipeline',
      startedAt: startedAt.toISOString(),
      node: process.version,
      reps: REPS,
      corpus: { pages, bytes: corpus.totalBytes, sites: Object.fromEntries(corpus.sites), contexts: contextCount, texts: texts.length, textBytes },
      model: { ...trained, model: undefined, vocabulary: trained.model.vocabularySize },
      endToEnd: {
        ...Object.fromEntries(pipeline),
        pagesPerSecond: perSecond(pages, fresh.median),
        contextsPerSecond: perSecond(e2eLinks, fresh.median),
        rawCutPagesPerSecond: perSecond(pages, rawE2e.median),
      },
      stages,
      tokenizer: {
        ...Object.fromEntries(tokenizer),
        textBytes,
        coldMBps: perSecond(mb(textBytes), get(tokenizer, 'cold').median),
        warmMBps: perSecond(mb(textBytes), get(tokenizer, 'warm').median),
        rawCutMBps: perSecond(mb(textBytes), raw.median),
      },
      memory: { start: memoryStart, loaded: memoryLoaded, trained: memoryTrained, afterRuns: memoryPipeline, afterTokenizer: memoryAfterTokenizer, tokenCache: cacheMemory, peakRss: peak, heapPerRound: Object.fromEntries(heapPerRound) },
    };
    writeFileSync(json, `${JSON.stringify(figures, null, 2)}\n`);
  }
}

main();
