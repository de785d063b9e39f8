/**
 * `linkscent eval`: how well a link classifier predicts labeled links.
 *
 * - `--model FILE`: the model's topic decides the features and, unless --threshold, the
 *   threshold. Prints `{precision, recall, f1, accuracy, n, auc}` (auc: ROC AUC of P(+)).
 * - `--split F [--seed S]`: Han et al. 2010 §4.2, Table 1: a seeded shuffle, the first F of the
 *   examples train, the rest test, once with feature group 1 and once with group 2. Prints
 *   `{split, seed, train, test, form, group1: {…}, group2: {…}}`.
 *
 * Both count each link context once (`exampleKey`): a context repeated across the split would
 * be tested on what it was trained with.
 *
 * - `--pages FILE --page-model M`: a page classifier on labeled pages (seed 004 §4.5.2's P, R,
 *   F). Prints `{precision, recall, f1, accuracy, n}`.
 * - `--pages FILE --split F [--seed S]`: each page classifier method (zones, extracted, itfidf)
 *   trained on the same shuffled part F and measured on the rest. Prints `{split, seed, train,
 *   test, zones: {…}, extracted: {…}, itfidf: {…}}`.
 */
import { FEATURE_VERSION } from '../../../shared/features/types.ts';
import type { LabeledLink, NbForm } from '../../../shared/model/types.ts';
import { NB_FORMS } from '../../../shared/model/nb-counts.ts';
import { TOPIC_DEFAULTS } from '../../../shared/model/topic-defaults.ts';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { urlTokensFlag } from '../url-tokens-flag.ts';

const SPLIT_ONLY = ['seed', 'lexicon', 'form', 'url-tokens', 'no-url-tokens'] as const;
const PAGES_ONLY = ['page-model', 'top-k', 'knowledge-base', 'delay-ms'] as const;
const LINKS_ONLY = ['model', 'model-topic', 'lexicon', 'form', 'url-tokens', 'no-url-tokens'] as const;

export async function run(args: Args, io: CliIo): Promise<void> {
  if (args.has('pages')) return evalPages(args, io);
  for (const name of PAGES_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for eval --pages`);
  const [labeledPath] = args.positionals as [string | undefined];
  if (labeledPath === undefined) throw new UsageError('missing <labeled.jsonl> (or --pages FILE for a page classifier)');
  const modelPath = args.string('model');
  const hasSplit = args.has('split');
  if (modelPath !== undefined && hasSplit) throw new UsageError('give --model FILE or --split F, not both');
  if (modelPath === undefined && !hasSplit) throw new UsageError('give --model FILE (evaluate a model) or --split F (train and test on a split)');
  const threshold = args.has('threshold') ? args.number('threshold', { min: 0, max: 1, what: 'a probability from 0 to 1' }) : undefined;
  if (modelPath !== undefined) {
    for (const name of SPLIT_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for --split; with --model the model's topic decides`);
    return evalModel(args, io, labeledPath, modelPath, threshold);
  }
  if (args.has('model-topic')) throw new UsageError('--model-topic chooses a topic in --model; it has no use with --split');
  const split = args.number('split', { min: 0, max: 1, open: true, what: 'a fraction between 0 and 1 (exclusive)' });
  const seed = args.nonNegativeInt('seed');
  const form = args.choice<NbForm>('form', NB_FORMS);
  return evalSplit(args, io, labeledPath, { split, seed, form, threshold: threshold ?? TOPIC_DEFAULTS.threshold });
}

async function readExamples(path: string, io: CliIo): Promise<LabeledLink[]> {
  const { readLabeledFiles } = await import('../labeled-jsonl.ts');
  const { dedupeExamples } = await import('../../training/link-training.ts');
  return dedupeExamples(readLabeledFiles([path], (line) => io.warn(`linkscent eval: ${line}`))).examples;
}

async function evalModel(args: Args, io: CliIo, labeledPath: string, modelPath: string, threshold: number | undefined): Promise<void> {
  const [{ loadLinkModel }, { evaluateLinkModel, reportOf }, { loadNodeTokenizer }] = await Promise.all([
    import('../../model/link-model-file.ts'),
    import('../../training/link-training.ts'),
    import('../../platform/jieba-node.ts'),
  ]);
  // The model first: a bad model file is reported before the labeled file is read and tokenized.
  const loaded = await loadLinkModel(modelPath, args.string('model-topic'));
  const examples = await readExamples(labeledPath, io);
  const metrics = evaluateLinkModel(loaded.model, examples, loadNodeTokenizer(), loaded.features, threshold ?? loaded.topic.threshold);
  io.out(JSON.stringify(reportOf(metrics)));
}

interface SplitOptions {
  split: number;
  seed: number;
  form: NbForm;
  threshold: number;
}

async function evalSplit(args: Args, io: CliIo, labeledPath: string, options: SplitOptions): Promise<void> {
  const lexiconPath = args.string('lexicon');
  const [{ evaluateLinkModel, reportOf, splitExamples, trainLinkModel }, { loadNodeTokenizer }, { readLexiconFile }] = await Promise.all([
    import('../../training/link-training.ts'),
    import('../../platform/jieba-node.ts'),
    import('../lexicon-file.ts'),
  ]);
  const lexicon = lexiconPath === undefined ? [] : readLexiconFile(lexiconPath);
  const examples = await readExamples(labeledPath, io);
  const { train, test } = splitExamples(examples, options.split, options.seed);
  const trainPositives = train.filter((example) => example.label === 1).length;
  if (test.length === 0 || trainPositives === 0 || trainPositives === train.length) {
    throw new CliFailure(
      `${examples.length} examples are too few to split ${options.split}: the training part needs both labels and the test part at least one example`,
    );
  }
  const tokenizer = loadNodeTokenizer();
  const urlTokens = urlTokensFlag(args);
  const measure = (group: 1 | 2) => {
    const features = { group, lexicon, urlTokens, version: FEATURE_VERSION };
    const model = trainLinkModel(train, tokenizer, features, options.form);
    return reportOf(evaluateLinkModel(model, test, tokenizer, features, options.threshold));
  };
  io.out(
    JSON.stringify({
      split: options.split,
      seed: options.seed,
      train: train.length,
      test: test.length,
      form: options.form,
      group1: measure(1),
      group2: measure(2),
    }),
  );
}

/** `eval --pages`: a page classifier's P, R, F (seed 004 §4.5.2), or the three methods side by side on a split. */
async function evalPages(args: Args, io: CliIo): Promise<void> {
  if (args.positionals.length > 0) throw new UsageError(`eval --pages takes no <labeled.jsonl> (got "${args.positionals[0]}")`);
  for (const name of LINKS_ONLY) if (args.has(name)) throw new UsageError(`--${name} is for link classifiers, not eval --pages`);
  const pagesPath = args.requireString('pages');
  const modelPath = args.string('page-model');
  const hasSplit = args.has('split');
  if (modelPath !== undefined && hasSplit) throw new UsageError('give --page-model FILE or --split F, not both');
  if (modelPath === undefined && !hasSplit) throw new UsageError('eval --pages needs --page-model FILE (evaluate a model) or --split F (train and test each method)');
  if (args.has('threshold')) throw new UsageError("--threshold is for link classifiers; a page model carries its own");
  const delayMs = args.nonNegativeInt('delay-ms');
  const warn = (line: string) => io.warn(`linkscent eval: ${line}`);
  const [{ readLabeledPagesFile, trainOnPages }, { evaluatePages, pageReportOf }, { loadNodeTokenizer }] = await Promise.all([
    import('../../page-classifier/train-pages.ts'),
    import('../../page-classifier/eval-pages.ts'),
    import('../../platform/jieba-node.ts'),
  ]);
  if (modelPath !== undefined) {
    for (const name of ['seed', 'top-k', 'knowledge-base'] as const) if (args.has(name)) throw new UsageError(`--${name} is for --split; with --page-model the model decides`);
    const { loadPageClassifier } = await import('../../page-classifier/page-judge.ts');
    let classifier;
    try {
      classifier = loadPageClassifier(modelPath, loadNodeTokenizer());
    } catch (error) {
      throw new CliFailure((error as Error).message, { cause: error });
    }
    const { pages } = await readPagesOrFail(() => readLabeledPagesFile(pagesPath, { delayMs, warn }));
    io.out(JSON.stringify(pageReportOf(evaluatePages(classifier, pages))));
    return;
  }
  const split = args.number('split', { min: 0, max: 1, open: true, what: 'a fraction between 0 and 1 (exclusive)' });
  const seed = args.nonNegativeInt('seed');
  const topK = args.positiveInt('top-k');
  const knowledgeBasePath = args.string('knowledge-base');
  const [{ splitExamples }, { readKnowledgeBaseFile }, { PAGE_METHODS }] = await Promise.all([
    import('../../training/link-training.ts'),
    import('../knowledge-base-file.ts'),
    import('../../page-classifier/page-classifier.ts'),
  ]);
  const knowledgeBase = knowledgeBasePath === undefined ? undefined : readKnowledgeBaseFile(knowledgeBasePath);
  const { pages } = await readPagesOrFail(() => readLabeledPagesFile(pagesPath, { delayMs, warn }));
  const { train, test } = splitExamples(pages, split, seed);
  const trainPositives = train.filter((page) => page.label === 1).length;
  if (test.length === 0 || trainPositives === 0 || trainPositives === train.length) {
    throw new CliFailure(`${pages.length} pages are too few to split ${split}: the training part needs both labels and the test part at least one page`);
  }
  const report: Record<string, unknown> = { split, seed, train: train.length, test: test.length };
  for (const method of PAGE_METHODS) report[method] = pageReportOf(evaluatePages(trainOnPages(train, { topK, method, knowledgeBase }), test));
  io.out(JSON.stringify(report));
}

/** A labeled pages file that yields nothing usable is a failure of the command, in one line. */
async function readPagesOrFail<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new CliFailure((error as Error).message, { cause: error });
  }
}
