/**
 * The crawl's topic flags, read into what the strategies take (`StrategyDeps`):
 *
 *   --topic "keywords…" | --topic-file FILE | --topic-dir DIR --topic-name NAME   (one of them)
 *   --alpha A            best-first, best-first-extracted: α of seed 004 eq. 5-4
 *   --lambda L, --block-threshold T                 lpe: λ of JFE and θ of seed 002 §4
 *   --knowledge-base FILE                           best-first-extracted: seed 004's expansion
 *   --synonyms FILE      rw, ipagerank: the synonym list (replaces the topic's synonyms.txt)
 *   --rw-threshold C     rw, ipagerank: c of RW relevance
 *
 * The topic directory is seed 003's topic choice (`crawl/topic-directory.ts`). A file or
 * directory that cannot be used is one `CliFailure` line naming it (and the line, for a synonym
 * list); a flag given to a strategy that does not use it is a `UsageError`.
 */
import { statSync } from 'node:fs';
import { loadTopic, TopicDirectoryError } from '../crawl/topic-directory.ts';
import { MAX_SYNONYM_BYTES, parseSynonymList, SynonymListError, type SynonymGroup } from '../crawl/strategies/synonym-list.ts';
import { InputFileError, readTextFile } from '../platform/input-files.ts';
import type { Args } from './args.ts';
import { CliFailure, UsageError } from './errors.ts';

/** Strategies valuing links against a topic. */
export const TOPIC_STRATEGIES = ['best-first', 'lpe', 'best-first-extracted', 'rw', 'ipagerank'];
/** The flags only some of them take. */
const TOPIC_STRATEGY_FLAGS: Record<string, readonly string[]> = {
  alpha: ['best-first', 'best-first-extracted'],
  lambda: ['lpe'],
  'block-threshold': ['lpe'],
  'knowledge-base': ['best-first-extracted'],
  synonyms: ['rw', 'ipagerank'],
  'rw-threshold': ['rw', 'ipagerank'],
};

export interface TopicFlags {
  topicText?: string;
  alpha?: number;
  lambda?: number;
  blockThreshold?: number;
  knowledgeBasePath?: string;
  synonyms?: SynonymGroup[];
  rwThreshold?: number;
  /** What the crawl says it uses, for one log line (rw, ipagerank). */
  note?: string;
}

export function topicFlags(args: Args, strategyName: string): TopicFlags {
  const given = ['topic', 'topic-file', 'topic-dir'].filter((flag) => args.has(flag));
  if (given.length > 1) throw new UsageError(`give one of --topic, --topic-file and --topic-dir, not ${given.map((f) => `--${f}`).join(' and ')}`);
  if (args.has('topic-dir') !== args.has('topic-name')) throw new UsageError('--topic-dir and --topic-name go together');
  const takesTopic = TOPIC_STRATEGIES.includes(strategyName);
  if (!takesTopic && given.length > 0) {
    throw new UsageError(`--topic, --topic-file and --topic-dir are for --strategy ${TOPIC_STRATEGIES.join(', ')}, not ${strategyName}`);
  }
  for (const [flag, strategies] of Object.entries(TOPIC_STRATEGY_FLAGS)) {
    if (args.has(flag) && !strategies.includes(strategyName)) throw new UsageError(`--${flag} is for --strategy ${strategies.join(', ')}, not ${strategyName}`);
  }
  if (takesTopic && given.length === 0) {
    throw new UsageError(`--strategy ${strategyName} needs --topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME`);
  }
  if (!takesTopic) return {};
  const takesRw = TOPIC_STRATEGY_FLAGS.synonyms!.includes(strategyName);

  const flags: TopicFlags = {};
  let fromDirectory: SynonymGroup[] | undefined;
  try {
    const inline = args.string('topic');
    const file = args.string('topic-file');
    const dir = args.string('topic-dir');
    if (inline !== undefined) {
      if (inline.trim() === '') throw new UsageError('--topic must not be empty');
      flags.topicText = inline;
    } else if (file !== undefined) {
      flags.topicText = readTextFile(file, `--topic-file ${file}`);
    } else {
      const topic = loadTopic(dir!, args.requireString('topic-name'));
      flags.topicText = topic.samples.join('\n');
      fromDirectory = topic.synonyms;
    }
    const unit = { min: 0, max: 1, what: 'a number from 0 to 1' };
    if (args.has('alpha')) flags.alpha = args.number('alpha', unit);
    if (args.has('lambda')) flags.lambda = args.number('lambda', unit);
    if (args.has('block-threshold')) flags.blockThreshold = args.number('block-threshold', unit);
    const knowledgeBasePath = args.string('knowledge-base');
    if (knowledgeBasePath !== undefined) flags.knowledgeBasePath = knowledgeBasePath;
    const synonymsFile = args.string('synonyms');
    if (takesRw) {
      flags.synonyms = synonymsFile !== undefined ? readSynonymsFile(synonymsFile) : fromDirectory;
      flags.rwThreshold = args.has('rw-threshold') ? args.number('rw-threshold', unit) : undefined;
      const source = synonymsFile !== undefined ? `--synonyms ${synonymsFile}` : fromDirectory ? "the topic's synonyms.txt" : "co-occurrence in the topic's text";
      flags.note = `${strategyName}: word similarity from ${source}${flags.synonyms ? ` (${flags.synonyms.length} groups)` : ''}`;
    }
  } catch (error) {
    if (error instanceof TopicDirectoryError || error instanceof SynonymListError || error instanceof InputFileError) throw new CliFailure(error.message, { cause: error });
    throw error;
  }
  return flags;
}

/** --synonyms FILE, its size checked before it is read. */
function readSynonymsFile(path: string): SynonymGroup[] {
  const what = `--synonyms ${path}`;
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    // readTextFile says why in its own words
  }
  if (size > MAX_SYNONYM_BYTES) throw new SynonymListError(`${what}: larger than ${MAX_SYNONYM_BYTES} bytes; a synonym list is one group of words a line`);
  return parseSynonymList(readTextFile(path, what), what);
}
