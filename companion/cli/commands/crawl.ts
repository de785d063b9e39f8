/**
 * `linkscent crawl`: the focused crawl. Fetches in priority order (higher score sooner) with
 * the chosen strategy, writing DIR/pages.jsonl in fetch order and DIR/crawl.sqlite (resumable).
 *
 * Strategy: nb (Han et al. 2010) when --model is given, else bfs; best-first and
 * best-first-extracted (seed 004), lpe (seed 002), rw and ipagerank (seed 003) need a topic:
 * --topic, --topic-file, or --topic-dir with --topic-name (`topic-flags.ts`); pagerank (seed
 * 003's baseline) needs nothing. With --page-model, a page classifier judges every fetched page: its
 * relevance lands in pages.jsonl and the progress line shows a running harvest-rate estimate.
 */
import { CRAWL_LIMITS } from '../../crawl/crawl-limits.ts';
import type { CrawlOptionsInput } from '../../crawl/crawl-options.ts';
import { nbCrawl, type NbParts } from '../../crawl/nb-crawl.ts';
import { parseRedisFrontierUrl } from '../../frontier/redis/redis-url.ts';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { topicFlags } from '../topic-flags.ts';
import { checkSeedArgs, crawlLimitOptions, EXIT_INTERRUPTED, installInterrupt, scopeOf } from './crawl-common.ts';

export async function run(args: Args, io: CliIo): Promise<number | void> {
  const seeds = checkSeedArgs(args.positionals);
  const resume = args.flag('resume');
  if (seeds.length === 0 && !resume && !args.has('frontier')) throw new UsageError('missing <seed-url> (or --resume to continue the crawl in --out)');
  const maxPages = args.positiveInt('max-pages', CRAWL_LIMITS.maxPages);
  const outDir = args.requireString('out');
  const modelPath = args.string('model');
  const strategyName = args.choice('strategy', CRAWL_STRATEGIES, modelPath !== undefined ? 'nb' : 'bfs');
  if (strategyName === 'nb' && modelPath === undefined) throw new UsageError('--strategy nb needs --model FILE (a model from linkscent train)');
  if (modelPath !== undefined && strategyName !== 'nb') {
    throw new UsageError(`--model is only used by --strategy nb, not ${strategyName}; drop one of them`);
  }
  if (args.has('model-topic') && modelPath === undefined) throw new UsageError('--model-topic needs --model');
  const topic = topicFlags(args, strategyName);
  const pageModelPath = args.string('page-model');
  const limits = crawlLimitOptions(args);
  const scope = scopeOf(args);
  const focus = focusOptions(args, strategyName);
  if (args.has('warc-max-bytes') && !args.flag('warc')) throw new UsageError('--warc-max-bytes goes with --warc');
  const warc = args.flag('warc') ? { maxFileBytes: args.positiveInt('warc-max-bytes') } : null;
  const storeText = args.flag('store-text');
  const frontier = frontierOf(args);

  const [{ runCrawl }, { createStrategy, StrategyConfigError }, { createProgressReporter }, { loadNodeTokenizer }, { readKnowledgeBaseFile }] = await Promise.all([
    import('../../crawl/crawler.ts'),
    import('../../crawl/strategies/index.ts'),
    import('../../crawl/progress.ts'),
    import('../../platform/jieba-node.ts'),
    import('../knowledge-base-file.ts'),
  ]);
  // jieba builds its dictionary on the first cut (≈ 250 ms of CPU and 50 MB, jieba-node.ts),
  // paid up front so the first page does not wait for it; a crawl that tokenizes nothing (a
  // strategy that reads no text, no page model) never pays it at all.
  const tokenizer = loadNodeTokenizer({ warm: !(TEXTLESS_STRATEGIES.includes(strategyName) && pageModelPath === undefined) });

  let strategy;
  let window: number | undefined;
  let nbParts: Partial<CrawlOptionsInput> = {};
  let pageJudge;
  if (pageModelPath !== undefined) {
    const { loadPageClassifier, createPageJudge } = await import('../../page-classifier/page-judge.ts');
    pageJudge = createPageJudge(loadPageClassifier(pageModelPath, tokenizer));
  }
  try {
    if (strategyName === 'nb') {
      const { loadLinkScorer } = await import('../../model/link-model-file.ts');
      const loaded = await loadLinkScorer(modelPath!, tokenizer, args.string('model-topic'));
      const composed = nbCrawl(loaded, focus, pageJudge !== undefined, (line) => io.warn(`linkscent crawl: ${line}`));
      ({ strategy } = composed);
      ({ window, ...nbParts } = composed.options);
    } else {
      const { knowledgeBasePath, note, ...deps } = topic;
      const knowledgeBase = knowledgeBasePath === undefined ? undefined : readKnowledgeBaseFile(knowledgeBasePath);
      strategy = createStrategy(strategyName, { tokenizer, ...deps, knowledgeBase });
      if (note) io.warn(`linkscent crawl: ${note}`);
    }
  } catch (error) {
    if (error instanceof StrategyConfigError) throw new UsageError(error.message, { cause: error });
    throw error;
  }

  const interrupt = installInterrupt(io, 'crawl');
  let summary;
  try {
    summary = await runCrawl({
      seeds,
      outDir,
      maxPages,
      strategy,
      resume,
      ...(window !== undefined ? { window } : {}),
      ...limits,
      ...nbParts,
      scope,
      pageJudge,
      warc,
      storeText,
      frontier,
      signal: interrupt.signal,
      onProgress: createProgressReporter(),
      log: (line) => io.warn(line),
    });
  } catch (error) {
    // The crawler's option errors (a resume of another strategy, no crawl to resume) are ours
    // to report as one line; anything else is a runtime failure all the same.
    throw new CliFailure((error as Error).message, { cause: error });
  } finally {
    interrupt.dispose();
  }
  const seconds = summary.elapsedMs / 1000;
  const harvest = summary.harvest === null ? '' : `, harvest ${summary.harvest.toFixed(3)} (${summary.relevant}/${summary.judged} judged relevant)`;
  io.out(
    `crawl: ${summary.fetchedThisRun} pages this run (${summary.fetched} in all) in ${seconds.toFixed(1)} s, ` +
      `${(summary.fetchedThisRun / Math.max(seconds, 1e-3)).toFixed(1)} pages/s, ${summary.errors} errors${harvest}; ` +
      `${summary.queued} queued, stopped by ${summary.stoppedBy} → ${summary.pagesFile}`,
  );
  return summary.stoppedBy === 'aborted' ? EXIT_INTERRUPTED : undefined;
}

/** Strategies that read no text: without a page model, their crawl never tokenizes. */
const TEXTLESS_STRATEGIES: readonly string[] = ['bfs', 'pagerank'];

/** The --strategy names the command takes (the registry's, `crawl/strategies/index.ts`). */
const CRAWL_STRATEGIES = ['nb', 'bfs', 'best-first', 'lpe', 'best-first-extracted', 'rw', 'ipagerank', 'pagerank'];

const NB_ONLY = ['gamma', 'r2', 'online-every', 'host-budget', 'no-pattern-links', 'no-future', 'no-explore', 'no-online', 'no-host-budget'] as const;

/** nb's parts as the flags chose (`docs/focused-crawl.md`); any of them given with another strategy is bad usage. */
function focusOptions(args: Args, strategyName: string): NbParts {
  if (strategyName !== 'nb') {
    for (const name of NB_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for --strategy nb, not ${strategyName}`);
  }
  const off = (part: string, flag: string, value: string) => {
    if (args.has(flag)) throw new UsageError(`--${flag} ${value} goes with ${part}: drop it or --no-${part}`);
  };
  if (args.flag('no-future')) off('future', 'gamma', 'G');
  if (args.flag('no-explore')) off('explore', 'r2', 'R');
  if (args.flag('no-online')) off('online', 'online-every', 'N');
  if (args.flag('no-host-budget')) off('host-budget', 'host-budget', 'K');
  return {
    patternLinks: !args.flag('no-pattern-links'),
    future: !args.flag('no-future'),
    gamma: args.number('gamma', { min: 0, max: 1, what: 'a number from 0 to 1' }),
    r2: args.flag('no-explore') ? null : args.number('r2', { min: 0, max: 1, what: 'a number from 0 to 1' }),
    onlineEvery: args.flag('no-online') ? null : args.positiveInt('online-every'),
    hostBudget: args.flag('no-host-budget') ? null : args.positiveInt('host-budget'),
  };
}

/** --frontier, checked before anything is loaded (a bad URL is bad usage, exit 2); null without it. */
function frontierOf(args: Args): string | null {
  const value = args.string('frontier');
  if (value === undefined) return null;
  try {
    parseRedisFrontierUrl(value);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
  return value;
}
