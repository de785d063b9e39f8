/**
 * The worker's engine: `WorkerApi` on the shared pipeline (features → Naive Bayes) and storage.
 *
 * One warm model per topic, loaded from IndexedDB on first use (or trained from the topic's
 * examples when it has none stored) and kept for as long as the topic's features are the same;
 * a topic whose lexicon, feature group or form changed is retrained from its examples, which are
 * the source of truth. New and relabeled examples change the warm model at once
 * (`NaiveBayes.add` / `remove`, incremental, no button), and the model is written back after a
 * short quiet spell, so a burst of batches costs one write.
 *
 * Features and scores come from the shared `LinkScorer`, one per warm topic, the very class the
 * companion's crawler scores with: training, incremental updates and scoring all featurise
 * through its `featuresOf`, so a model file scores a link the same in either half.
 *
 * Beside each warm model (issue 12): the threshold in use, calibrated on the held-out share
 * (`held-out.ts`) when the topic asks for it, again after every tenth more examples; the links
 * the user marked (by target URL: their mark wins over the model); and, for every topic, the
 * template links seen (`shared/labels/template-links.ts`), whose later sightings are not learned.
 */
import { TemplateLinks } from '../../shared/labels/template-links.ts';
import { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import { topicFeatureOptions } from '../../shared/model/topic-features.ts';
import type { Label, LabeledLink, LabelSource, Topic } from '../../shared/model/types.ts';
import { LinkScorer } from '../../shared/pipeline/link-scorer.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import type { LinkVerdict, PageLink } from '../messages/page-links.ts';
import type { HeldOut, MergeResult, ObserveResult, SeenPage, WorkerApi } from '../messages/worker-api.ts';
import { heldOutFigures, modeOf } from './held-out.ts';
import type { ExampleRepository, FileExamples, PutExamplesOptions } from './repository.ts';
import { EXPLAIN_TOP, verdictOf } from './verdicts.ts';

export interface EngineOptions {
  tokenizer: Tokenizer;
  repository: ExampleRepository;
  /** Quiet time before a changed model is written back. Default 500 ms. */
  saveDelayMs?: number;
  /** Template-link memory; default `new TemplateLinks()` (tests pass a smaller one). */
  templates?: TemplateLinks;
}

/** Examples learned since the last calibration that call for the next: a tenth more, at least this many. */
const RECALIBRATE_MIN = 25;
const HUMAN_SOURCES: ReadonlySet<LabelSource> = new Set(['user', 'page']);

/** What a warm model was trained with; a topic with another signature needs retraining. */
export function modelSignature(topic: Topic): string {
  const { group, lexicon, urlTokens, version } = topicFeatureOptions(topic);
  return JSON.stringify([group, topic.form, [...lexicon].sort(), urlTokens, version]);
}

/**
 * Which topic of a model file to merge: `wanted` when the file has it, else the file's only topic
 * (the companion may have named the crawl's topic its own way). Throws when neither is there.
 */
export function fileTopic(file: FileExamples, wanted: string): string {
  if (file.topicIds.includes(wanted) || file.examples.some((example) => example.topic === wanted)) return wanted;
  const topics = new Set([...file.topicIds, ...file.examples.map((example) => example.topic)]);
  if (topics.size === 1) return [...topics][0]!;
  throw new Error(`The labels file holds ${topics.size} topics and none is "${wanted}": it is not this crawl's.`);
}

export interface Engine extends Omit<WorkerApi, 'ping'> {
  /** Writes every changed model now (before an export; tests). */
  flush(): Promise<void>;
}

interface Warm {
  topic: Topic;
  /** The topic's model, with the topic's features; its explanations keep `EXPLAIN_TOP`. */
  scorer: LinkScorer;
  signature: string;
  /** The threshold in use and its held-out figures (`HeldOut`), and the examples it saw. */
  heldOut: HeldOut;
  calibratedAt: number;
  /** Target URL → the user's mark (a 'user' or 'page' label), latest first. */
  marks: Map<string, Label>;
}

export function createEngine({ tokenizer, repository, saveDelayMs = 500, templates = new TemplateLinks() }: EngineOptions): Engine {
  const warm = new Map<string, Warm>();
  const loading = new Map<string, Promise<Warm>>();
  const dirty = new Set<string>();
  let saveTimer: ReturnType<typeof setTimeout> | undefined;

  const scorerOf = (topic: Topic, model: NaiveBayes) => LinkScorer.forTopic(topic, model, tokenizer, EXPLAIN_TOP);

  /** A scorer over a model trained from scratch on `examples` (the same code as incremental `add`). */
  function train(topic: Topic, examples: readonly LabeledLink[]): LinkScorer {
    const scorer = scorerOf(topic, new NaiveBayes({ form: topic.form }));
    for (const example of examples) scorer.model.add(scorer.featuresOf(example), example.label);
    return scorer;
  }

  /** The threshold and figures of `topic` on its examples' held-out share. */
  function evaluate(topic: Topic, examples: readonly LabeledLink[]): HeldOut {
    return heldOutFigures(examples, topic, (trainShare) => {
      const scorer = train(topic, trainShare);
      return (example) => scorer.score(example, 0).p;
    });
  }

  /** What the examples say besides the counts: the user's marks, and the template links seen. */
  function marksOf(examples: readonly LabeledLink[]): Map<string, Label> {
    const marks = new Map<string, Label>();
    for (const example of examples) {
      templates.see(example);
      if (HUMAN_SOURCES.has(example.source)) marks.set(example.url, example.label);
    }
    return marks;
  }

  async function build(topic: Topic, signature: string, previous: Warm | undefined): Promise<Warm> {
    const examples = await repository.examples(topic.id);
    const rest = { signature, heldOut: evaluate(topic, examples), calibratedAt: examples.length, marks: marksOf(examples) };
    // A stored model is trusted when nothing warm says the topic changed since it was saved.
    const stored = previous === undefined ? await repository.loadModel(topic.id) : undefined;
    if (stored && stored.form === topic.form) return { topic, scorer: scorerOf(topic, stored), ...rest };
    const scorer = train(topic, examples);
    await repository.saveModel(topic, scorer.model);
    return { topic, scorer, ...rest };
  }

  /** Calibrates again when a tenth more examples (at least `RECALIBRATE_MIN`) came since. */
  let calibrating: Promise<void> = Promise.resolve();
  function recalibrateSoon(entry: Warm): void {
    const count = entry.scorer.model.exampleCount;
    if (Math.abs(count - entry.calibratedAt) < Math.max(RECALIBRATE_MIN, entry.calibratedAt / 10)) return;
    entry.calibratedAt = count;
    calibrating = calibrating
      .then(async () => {
        entry.heldOut = evaluate(entry.topic, await repository.examples(entry.topic.id));
      })
      .catch((error: unknown) => console.error('LinkScent: calibrating the threshold failed', error));
  }

  /** The threshold links are judged at: the calibrated one unless the topic's is fixed. */
  const thresholdOf = (entry: Warm) => (modeOf(entry.topic) === 'fixed' ? entry.topic.threshold : entry.heldOut.threshold);

  /** The topic's warm scorer, loaded, or retrained when its features changed. */
  async function scorerFor(topic: Topic): Promise<LinkScorer> {
    return (await warmFor(topic)).scorer;
  }

  async function warmFor(topic: Topic): Promise<Warm> {
    const signature = modelSignature(topic);
    const current = warm.get(topic.id);
    if (current && current.signature === signature) {
      const remeasure = modeOf(current.topic) !== modeOf(topic) || current.topic.targetPrecision !== topic.targetPrecision || current.topic.threshold !== topic.threshold;
      current.topic = topic;
      if (remeasure) current.heldOut = evaluate(topic, await repository.examples(topic.id));
      return current;
    }
    const key = `${topic.id}\u0000${signature}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = build(topic, signature, current).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    const entry = await pending;
    warm.set(topic.id, entry);
    return entry;
  }

  async function flush(): Promise<void> {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    const ids = [...dirty];
    dirty.clear();
    for (const id of ids) {
      const entry = warm.get(id);
      if (entry) await repository.saveModel(entry.topic, entry.scorer.model);
    }
  }

  function markDirty(topicId: string): void {
    dirty.add(topicId);
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void flush().catch((error: unknown) => console.error('LinkScent: saving the model failed', error)), saveDelayMs);
  }

  /** Stores examples and applies what changed to the warm model; returns how many changed. */
  async function learn(topic: Topic, examples: readonly LabeledLink[], options?: PutExamplesOptions): Promise<number> {
    if (examples.length === 0) return 0;
    const entry = await warmFor(topic);
    const { scorer, marks } = entry;
    const { model } = scorer;
    const { added, relabeled } = await repository.putExamples(examples, options);
    for (const example of added) {
      model.add(scorer.featuresOf(example), example.label);
      if (HUMAN_SOURCES.has(example.source)) marks.set(example.url, example.label);
    }
    for (const { before, after } of relabeled) {
      if (HUMAN_SOURCES.has(after.source)) marks.set(after.url, after.label);
      if (before.label === after.label) continue;
      model.remove(scorer.featuresOf(before), before.label);
      model.add(scorer.featuresOf(after), after.label);
    }
    if (added.length + relabeled.length > 0) {
      markDirty(topic.id);
      recalibrateSoon(entry);
    }
    return added.length + relabeled.length;
  }

  return {
    flush,

    async exportTopic(topic: Topic): Promise<string> {
      // The file must carry the topic's model: one never saved yet (an imported topic) is built now.
      await scorerFor(topic);
      await flush();
      return repository.exportTopicFile(topic.id);
    },

    async mergeLabels(topic: Topic, fileText: string, fromTopicId?: string): Promise<MergeResult> {
      const file = await repository.readFileExamples(fileText);
      const source = fileTopic(file, fromTopicId ?? topic.id);
      const offered = file.examples.filter((example) => example.topic === source).map((example) => ({ ...example, topic: topic.id }));
      // Only adds: a label stored here (a person's mark, a pattern's) is never replaced by a
      // crawl's; the new ones enter the warm model one by one, as browsing's do.
      const added = await learn(topic, offered, { relabel: false });
      return { offered: offered.length, added, duplicates: offered.length - added };
    },

    async scoreLinks(topic: Topic, links: PageLink[]): Promise<LinkVerdict[]> {
      // Seen before anything is awaited, so the `observe` of the same batch knows them.
      const template = links.map((link) => templates.see(link));
      const entry = await warmFor(topic);
      const threshold = thresholdOf(entry);
      const { scorer } = entry;
      return links.map((link, i) => {
        // P(+) alone first; the explanation only for a link its verdict lights (verdictOf),
        // from the features the score just listed.
        const score = scorer.score(link, 0);
        // Most topics have no marks: an empty Map's lookup still hashed each new URL string.
        const mark = entry.marks.size === 0 ? undefined : entry.marks.get(link.url);
        const kind = { self: link.url === link.pageUrl, mark, template: template[i]! };
        return verdictOf(link.ref, score, threshold, kind, () => scorer.explain(link, EXPLAIN_TOP));
      });
    },

    async observe(topic: Topic, examples: LabeledLink[], page?: SeenPage): Promise<ObserveResult> {
      if (page) await repository.notePage(topic.id, page);
      // A template link is learned from the first pages it was seen on, not again on every page.
      const fresh = examples.filter((example) => {
        if (example.topic !== topic.id) return false;
        if (HUMAN_SOURCES.has(example.source)) return true;
        templates.see(example);
        return !templates.isRepeat(example);
      });
      return { added: await learn(topic, fresh) };
    },

    async labelTarget(topic: Topic, url: string, label: Label, source: LabelSource, pageUrl?: string) {
      const stored = await repository.examplesTo(topic.id, url, pageUrl);
      await learn(topic, stored.map((row): LabeledLink => ({ ...row, label, source })));
      if (source === 'page') await repository.markPage(topic.id, url, label);
      // The mark shows at once wherever the link appears, learned example or not.
      if (HUMAN_SOURCES.has(source)) (await warmFor(topic)).marks.set(url, label);
      return { labeled: stored.length };
    },

    async dropTopic(topicId: string): Promise<void> {
      warm.delete(topicId);
      dirty.delete(topicId);
      await repository.deleteTopicData(topicId);
    },

    async retrain(topic: Topic) {
      const examples = await repository.examples(topic.id);
      const scorer = train(topic, examples);
      warm.set(topic.id, { topic, scorer, signature: modelSignature(topic), heldOut: evaluate(topic, examples), calibratedAt: examples.length, marks: marksOf(examples) });
      dirty.delete(topic.id);
      await repository.saveModel(topic, scorer.model);
      return { examples: examples.length };
    },

    counts: (topic: Topic | null) => repository.counts(topic?.id ?? null),

    async evaluateHeldOut(topic: Topic): Promise<HeldOut> {
      const entry = await warmFor(topic);
      await calibrating;
      return entry.heldOut;
    },

    async exportDatabase(): Promise<string> {
      await flush();
      return repository.exportFile();
    },

    async importDatabase(fileText: string, replace = false) {
      await flush();
      const topicIds = (await repository.readFileExamples(fileText)).topicIds;
      const summary = await repository.importFile(fileText, { replace });
      // Everything warm came from the database as it was.
      warm.clear();
      dirty.clear();
      // A merge leaves a file's topic with the file's model: rebuilt over every example it now
      // has (ours and the file's), so the model equals its examples again. A topic with no
      // examples (a `linkscent train` file carries its model only) keeps the file's model.
      if (!replace) {
        for (const id of topicIds) {
          const examples = await repository.examples(id);
          const topic = await repository.topic(id);
          if (topic && examples.length > 0) await repository.saveModel(topic, train(topic, examples).model);
        }
      }
      const { byLabel } = await repository.counts(null);
      return { topics: summary.topics, examples: summary.examples, duplicates: summary.duplicateExamples, total: byLabel.on + byLabel.off };
    },
  };
}
