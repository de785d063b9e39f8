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

export async function run(args: Args, io: CliIo): Promise<void> {
  const [labeledPath] = args.positionals as [string];
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
