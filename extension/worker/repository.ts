/**
 * What the worker's engine needs from storage. `dexie-repository.ts` implements it on the
 * extension's database (`storage/database.ts`); the engine's tests run that same implementation on
 * fake-indexeddb.
 */
import type { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import type { ExampleRow, Label, LabeledLink, Topic } from '../../shared/model/types.ts';
import type { Counts } from '../messages/protocol.ts';
import type { SeenPage } from '../messages/worker-api.ts';
import type { ImportSummary } from '../storage/model-file-io.ts';

/** A stored example whose label changed (a person's mark over a pattern's, or a new mark). */
export interface Relabeling {
  before: LabeledLink;
  after: LabeledLink;
}

export interface PutExamplesResult {
  added: LabeledLink[];
  relabeled: Relabeling[];
}

export interface PutExamplesOptions {
  /**
   * Whether a person's label ('user' or 'page') may replace a stored example's. Default true;
   * false for labels merged from a file, which only ever add.
   */
  relabel?: boolean;
}

/** The examples a model file holds, with the topics it lists. */
export interface FileExamples {
  topicIds: string[];
  examples: LabeledLink[];
}

export interface ExampleRepository {
  /**
   * Stores examples by `[topic+key]` (`exampleKey`), so one link context is one example. A
   * stored one is relabeled when the new example comes from a person ('user' or 'page') and
   * differs in label or source (unless `relabel: false`); a pattern never overrides a stored
   * example.
   */
  putExamples(examples: readonly LabeledLink[], options?: PutExamplesOptions): Promise<PutExamplesResult>;
  /** The topic's stored examples whose target is `url` (found on `pageUrl`, when given). */
  examplesTo(topicId: string, url: string, pageUrl?: string): Promise<ExampleRow[]>;
  /** Records a page as seen for the topic (its label, if marked, is kept). */
  notePage(topicId: string, page: SeenPage): Promise<void>;
  /** Records the user's mark of a page. */
  markPage(topicId: string, url: string, label: Label): Promise<void>;
  /** The stored topic row, if there is one. */
  topic(topicId: string): Promise<Topic | undefined>;
  /** A topic's examples, in the order they were added. */
  examples(topicId: string): Promise<LabeledLink[]>;
  /** Counts for one topic, or over every topic when null. */
  counts(topicId: string | null): Promise<Counts>;
  deleteTopicData(topicId: string): Promise<void>;
  loadModel(topicId: string): Promise<NaiveBayes | undefined>;
  saveModel(topic: Topic, model: NaiveBayes): Promise<void>;
  /** The whole database as a model file, without the companion pairing. */
  exportFile(): Promise<string>;
  /** One topic as a model file: its topic row, examples and model; no pages, no settings. */
  exportTopicFile(topicId: string): Promise<string>;
  /** Checks a model file completely and returns its examples; throws a one-line Error when it is not one. */
  readFileExamples(fileText: string): Promise<FileExamples>;
  /**
   * Imports a model file, or throws and changes nothing. By default it merges (topics by id,
   * examples by `[topic+key]`, `extension/storage/model-file-io.ts`); with `replace` the
   * database becomes the file. Either way the companion pairing is this installation's and stays
   * as it was.
   */
  importFile(fileText: string, options?: { replace?: boolean }): Promise<ImportSummary>;
}
