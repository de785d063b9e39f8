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
 */
import { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import { topicFeatureOptions } from '../../shared/model/topic-features.ts';
import type { Label, LabeledLink, LabelSource, Topic } from '../../shared/model/types.ts';
import { LinkScorer } from '../../shared/pipeline/link-scorer.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import type { LinkVerdict, PageLink } from '../messages/page-links.ts';
import type { HeldOut, MergeResult, ObserveResult, SeenPage, WorkerApi } from '../messages/worker-api.ts';
import { heldOutAccuracy } from './held-out.ts';
import type { ExampleRepository, FileExamples, PutExamplesOptions } from './repository.ts';
import { EXPLAIN_TOP, verdictOf } from './verdicts.ts';

export interface EngineOptions {
  tokenizer: Tokenizer;
  repository: ExampleRepository;
  /** Quiet time before a changed model is written back. Default 500 ms. */
  saveDelayMs?: number;
}

/** What a warm model was trained with; a topic with another signature needs retraining. */
export function modelSignature(topic: Topic): string {
  const { group, lexicon, urlTokens } = topicFeatureOptions(topic);
  return JSON.stringify([group, topic.form, [...lexicon].sort(), urlTokens]);
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
}

export function createEngine({ tokenizer, repository, saveDelayMs = 500 }: EngineOptions): Engine {
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

  async function build(topic: Topic, signature: string, previous: Warm | undefined): Promise<Warm> {
    // A stored model is trusted when nothing warm says the topic changed since it was saved.
    const stored = previous === undefined ? await repository.loadModel(topic.id) : undefined;
    if (stored && stored.form === topic.form) return { topic, scorer: scorerOf(topic, stored), signature };
    const scorer = train(topic, await repository.examples(topic.id));
    await repository.saveModel(topic, scorer.model);
    return { topic, scorer, signature };
  }

  /** The topic's warm scorer, loaded, or retrained when its features changed. */
  async function scorerFor(topic: Topic): Promise<LinkScorer> {
    const signature = modelSignature(topic);
    const current = warm.get(topic.id);
    if (current && current.signature === signature) {
      current.topic = topic;
      return current.scorer;
    }
    const key = `${topic.id}\u0000${signature}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = build(topic, signature, current).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    const entry = await pending;
    warm.set(topic.id, entry);
    return entry.scorer;
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
    const scorer = await scorerFor(topic);
    const { model } = scorer;
    const { added, relabeled } = await repository.putExamples(examples, options);
    for (const example of added) model.add(scorer.featuresOf(example), example.label);
    for (const { before, after } of relabeled) {
      if (before.label === after.label) continue;
      model.remove(scorer.featuresOf(before), before.label);
      model.add(scorer.featuresOf(after), after.label);
    }
    if (added.length + relabeled.length > 0) markDirty(topic.id);
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
      const scorer = await scorerFor(topic);
      return links.map((link) => verdictOf(link.ref, scorer.score(link), topic.threshold));
    },

    async observe(topic: Topic, examples: LabeledLink[], page?: SeenPage): Promise<ObserveResult> {
      if (page) await repository.notePage(topic.id, page);
      return { added: await learn(topic, examples.filter((example) => example.topic === topic.id)) };
    },

    async labelTarget(topic: Topic, url: string, label: Label, source: LabelSource, pageUrl?: string) {
      const stored = await repository.examplesTo(topic.id, url, pageUrl);
      await learn(topic, stored.map((row): LabeledLink => ({ ...row, label, source })));
      if (source === 'page') await repository.markPage(topic.id, url, label);
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
      warm.set(topic.id, { topic, scorer, signature: modelSignature(topic) });
      dirty.delete(topic.id);
      await repository.saveModel(topic, scorer.model);
      return { examples: examples.length };
    },

    counts: (topic: Topic | null) => repository.counts(topic?.id ?? null),

    async evaluateHeldOut(topic: Topic): Promise<HeldOut> {
      const examples = await repository.examples(topic.id);
      return heldOutAccuracy(examples, (trainShare) => {
        const scorer = train(topic, trainShare);
        return (example) => (scorer.score(example, 0).p >= topic.threshold ? 1 : 0);
      });
    },

    async exportDatabase(): Promise<string> {
      await flush();
      return repository.exportFile();
    },

    async importDatabase(fileText: string) {
      await flush();
      await repository.importFile(fileText);
      // Everything warm came from the old database.
      warm.clear();
      dirty.clear();
      const { byLabel } = await repository.counts(null);
      return { examples: byLabel.on + byLabel.off };
    },
  };
}
