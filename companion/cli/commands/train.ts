/**
 * `linkscent train`: the link classifier from labeled links (Han et al. 2010: links, not
 * pages), written as the Dexie export file the extension imports; or, with --pages, the page
 * classifier (seed 004) that judges crawled pages.
 */
import { FEATURE_VERSION, type FeatureGroup } from '../../../shared/features/types.ts';
import type { NbForm } from '../../../shared/model/types.ts';
import { labelsAnything } from '../../../shared/labels/pattern-labels.ts';
import { NB_FORMS } from '../../../shared/model/nb-counts.ts';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import { patternsFromFlags } from '../pattern-flags.ts';
import { urlTokensFlag } from '../url-tokens-flag.ts';
import type { CliIo } from '../io.ts';
import { DEFAULT_TOPIC } from '../specs.ts';
import { PAGE_METHODS, type PageMethod } from '../../page-classifier/page-classifier.ts';

const LINK_ONLY = ['features', 'lexicon', 'form', 'topic', 'window', 'threshold', 'url-tokens', 'no-url-tokens', 'positive', 'negative'] as const;
const PAGES_ONLY = ['top-k', 'delay-ms', 'method', 'knowledge-base'] as const;

export async function run(args: Args, io: CliIo): Promise<void> {
  const out = args.requireString('out');
  if (args.has('pages')) return trainPages(args, io, out);
  for (const name of PAGES_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for train --pages only`);
  if (args.positionals.length === 0) throw new UsageError('missing <labeled.jsonl> (or --pages FILE for the page classifier)');

  const group = Number(args.choice('features', ['1', '2'])) as FeatureGroup;
  const form = args.choice<NbForm>('form', NB_FORMS);
  const window = args.positiveInt('window');
  const threshold = args.number('threshold', { min: 0, max: 1, what: 'a probability from 0 to 1' });
  const urlTokens = urlTokensFlag(args);
  const positive = args.list('positive');
  const negative = args.list('negative');
  const patterns = patternsFromFlags(positive, negative); // a bad pattern is bad usage, before any work
  if (negative.length > 0 && !labelsAnything(patterns)) throw new UsageError('--negative needs --positive: without on-topic patterns a topic labels nothing');
  const lexiconPath = args.string('lexicon');
  const lexicon = lexiconPath === undefined ? [] : (await import('../lexicon-file.ts')).readLexiconFile(lexiconPath);
  if (lexicon.length > 0 && group === 1) io.warn('linkscent train: warning: --lexicon has no effect with --features 1 (lexicon flags are group 2)');

  const { readLabeledFiles } = await import('../labeled-jsonl.ts');
  const read = readLabeledFiles(args.positionals, (line) => io.warn(`linkscent train: ${line}`));
  const [{ dedupeExamples, trainLinkModel }, { trainLevelModel }, { loadNodeTokenizer }, { saveLinkModel }] = await Promise.all([
    import('../../training/link-training.ts'),
    import('../../training/level-training.ts'),
    import('../../platform/jieba-node.ts'),
    import('../../model/link-model-file.ts'),
  ]);
  const { examples, duplicates, conflicts } = dedupeExamples(read);
  const positives = examples.filter((example) => example.label === 1).length;
  const negatives = examples.length - positives;
  if (positives === 0 || negatives === 0) {
    throw new CliFailure(`the examples are all ${positives === 0 ? 'negative' : 'positive'} (${examples.length}); a classifier needs both labels`);
  }
  const topicName = args.string('topic') ?? commonTopic(examples.map((example) => example.topic)) ?? DEFAULT_TOPIC;

  const tokenizer = loadNodeTokenizer();
  const features = { group, lexicon, urlTokens, version: FEATURE_VERSION };
  const model = trainLinkModel(examples, tokenizer, features, form);
  // The level classifier (future value) needs the links' graph to show more than one distance;
  // examples without one (marked by hand, say) train the link classifier alone.
  const trained = trainLevelModel(examples, tokenizer, features);
  const levels = trained.perLevel.filter((n) => n > 0).length >= 2 ? trained.model : undefined;
  const levelNote = levels
    ? `; levels ${trained.perLevel.map((n, d) => `${d}${d === trained.perLevel.length - 1 ? '+' : ''}: ${n}`).join(', ')} (${trained.unknown} links of unknown distance left out)`
    : '; no levels (the links show no path to the topic: future value off)';
  const saved = await saveLinkModel(out, {
    name: topicName,
    lexicon,
    threshold,
    featureGroup: group,
    form,
    window,
    urlTokens,
    featureVersion: FEATURE_VERSION,
    positive,
    negative,
    model,
    levels,
    examples,
  });
  const notes = [duplicates > 0 ? `${duplicates} duplicates dropped` : '', conflicts > 0 ? `${conflicts} conflicting labels (first kept)` : '']
    .filter(Boolean)
    .join(', ');
  io.out(
    `train: topic "${topicName}": ${examples.length} examples (${positives} positive, ${negatives} negative), ` +
      `${saved.vocabulary} features, ${form}, group ${group}${urlTokens ? ' + URL tokens' : ''}` +
      `${lexicon.length ? `, lexicon of ${lexicon.length}` : ''}${notes ? `; ${notes}` : ''}${levelNote} → ${out}`,
  );
}

/** The examples' topic when they all share one non-empty name. */
function commonTopic(topics: string[]): string | undefined {
  const names = new Set(topics.filter((topic) => topic !== ''));
  return names.size === 1 ? [...names][0] : undefined;
}

/** `train --pages`: the page classifier (seed 004: IG feature selection + Laplace NB; or a method of seed 002 or 004, `--method`). */
async function trainPages(args: Args, io: CliIo, out: string): Promise<void> {
  if (args.positionals.length > 0) {
    throw new UsageError(`train --pages takes no <labeled.jsonl> (got "${args.positionals[0]}"); train the link model in a separate run`);
  }
  for (const name of LINK_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for the link classifier, not train --pages`);
  const pagesPath = args.requireString('pages');
  const topK = args.positiveInt('top-k');
  const delayMs = args.nonNegativeInt('delay-ms');
  const method = args.choice<PageMethod>('method', PAGE_METHODS);
  const knowledgeBasePath = args.string('knowledge-base');
  if (knowledgeBasePath !== undefined && method !== 'extracted') throw new UsageError(`--knowledge-base is for --method extracted, not ${method}`);
  const [{ trainPageClassifierFromFile }, { readKnowledgeBaseFile }] = await Promise.all([
    import('../../page-classifier/train-pages.ts'),
    import('../knowledge-base-file.ts'),
  ]);
  const knowledgeBase = knowledgeBasePath === undefined ? undefined : readKnowledgeBaseFile(knowledgeBasePath);
  const result = await trainPageClassifierFromFile(pagesPath, out, { topK, delayMs, method, knowledgeBase, warn: (line) => io.warn(`linkscent train: ${line}`) });
  const selection = method === 'itfidf' ? 'mutual information' : 'information gain';
  io.out(
    `train: page classifier${method === 'zones' ? '' : ` (${method})`}: ${result.pages} pages (${result.positives} positive, ${result.negatives} negative), ` +
      `${result.features} features kept by ${selection} of ${result.candidates}, multinomial${result.skipped ? `; ${result.skipped} pages skipped` : ''} → ${out}`,
  );
}
