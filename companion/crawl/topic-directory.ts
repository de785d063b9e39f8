/**
 * A topic directory: seed 003's "topic choice" (李盛韬 et al., SkyReach, §3.2). The user picks a
 * topic from a classified directory (the seed uses the Chinese Library Classification's first two
 * levels) and the topic's meaning comes from sample texts filed under it, not from a bare word:
 *
 *     DIR/
 *       工业技术/计算机/        a topic, named by its path: "工业技术/计算机"
 *         about.txt           its sample texts (UTF-8), any number of *.txt files
 *         synonyms.txt        optional: its synonym list (`strategies/synonym-list.ts`)
 *
 * A folder is a topic when it holds at least one sample text. The samples, joined, are the topic
 * text of best-first (seed 004's sim(·, topic)) and of RW relevance (its terms and, without a
 * synonym list, its co-occurrence similarity). Everything read is bounded, so a wrong directory
 * (a home folder, a corpus) fails in one line rather than being read whole.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { readTextFile } from '../platform/input-files.ts';
import { parseSynonymList, type SynonymGroup } from './strategies/synonym-list.ts';

/** The file of a topic's synonym list; every other *.txt is a sample text. */
export const SYNONYMS_FILE = 'synonyms.txt';
/** Folder levels below DIR searched for topics (the seed's directory has two). */
export const MAX_TOPIC_DEPTH = 4;
/** Folders visited at most while listing. */
export const MAX_TOPIC_FOLDERS = 2_000;
/** Sample texts read for one topic at most. */
export const MAX_SAMPLES = 200;
/** Bytes of sample text read for one topic at most. */
export const MAX_SAMPLE_BYTES = 8 << 20;

/** A topic directory or topic that cannot be used; the message is one line. */
export class TopicDirectoryError extends Error {
  override readonly name = 'TopicDirectoryError';
}

export interface DirectoryTopic {
  /** Its path under DIR, `/`-separated. */
  name: string;
  /** The sample texts, in file-name order. */
  samples: string[];
  /** Its synonym list, when it has one. */
  synonyms?: SynonymGroup[];
}

const isSample = (entry: Dirent) => entry.isFile() && entry.name.endsWith('.txt') && entry.name !== SYNONYMS_FILE;

/** The topics of DIR (folders holding a sample text), sorted. */
export function listTopics(dir: string): string[] {
  const topics: string[] = [];
  let visited = 0;
  const walk = (path: string, name: string, depth: number) => {
    if (++visited > MAX_TOPIC_FOLDERS) throw new TopicDirectoryError(`--topic-dir ${dir}: more than ${MAX_TOPIC_FOLDERS} folders; is it a topic directory?`);
    const entries = readEntries(path, `--topic-dir ${dir}`);
    if (name !== '' && entries.some(isSample)) topics.push(name);
    if (depth === MAX_TOPIC_DEPTH) return;
    for (const entry of entries) if (entry.isDirectory()) walk(join(path, entry.name), name === '' ? entry.name : `${name}/${entry.name}`, depth + 1);
  };
  walk(dir, '', 0);
  return topics.sort();
}

/** The topic `name` of DIR: its samples and synonym list. */
export function loadTopic(dir: string, name: string): DirectoryTopic {
  const parts = name.split('/');
  if (name === '' || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes(sep))) {
    throw new TopicDirectoryError(`--topic-name "${name}" is not a topic path (folders under --topic-dir joined by /)`);
  }
  const path = join(dir, ...parts);
  let entries: Dirent[];
  try {
    if (!statSync(path).isDirectory()) throw new Error('not a folder');
    entries = readEntries(path, `--topic-dir ${dir}`);
  } catch {
    throw new TopicDirectoryError(`--topic-dir ${dir} has no topic "${name}"; ${topicsNote(dir)}`);
  }
  const files = entries.filter(isSample).map((e) => e.name).sort();
  if (files.length === 0) throw new TopicDirectoryError(`--topic-dir ${dir}: topic "${name}" holds no sample text (*.txt); ${topicsNote(dir)}`);
  if (files.length > MAX_SAMPLES) throw new TopicDirectoryError(`--topic-dir ${dir}: topic "${name}" holds ${files.length} sample texts, more than ${MAX_SAMPLES}`);
  let bytes = 0;
  const samples = files.map((file) => {
    const filePath = join(path, file);
    bytes += statSync(filePath).size;
    if (bytes > MAX_SAMPLE_BYTES) throw new TopicDirectoryError(`--topic-dir ${dir}: topic "${name}" has more than ${MAX_SAMPLE_BYTES} bytes of sample text (at ${file})`);
    return readTextFile(filePath, `sample text ${filePath}`);
  });
  const topic: DirectoryTopic = { name, samples };
  if (entries.some((e) => e.isFile() && e.name === SYNONYMS_FILE)) {
    const file = join(path, SYNONYMS_FILE);
    topic.synonyms = parseSynonymList(readTextFile(file), file);
  }
  return topic;
}

function readEntries(path: string, what: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TopicDirectoryError(`cannot read ${what}: ${code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : (error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

/** "topics: a, b (2 in all)", or that there are none. */
function topicsNote(dir: string): string {
  let topics: string[];
  try {
    topics = listTopics(dir);
  } catch {
    return 'its topics cannot be listed';
  }
  if (topics.length === 0) return 'it holds no topic (a folder with a *.txt sample text)';
  const shown = topics.slice(0, 10).join(', ');
  return `topics: ${shown}${topics.length > 10 ? ', …' : ''} (${topics.length} in all)`;
}
