/**
 * Seed 003's RW relevance (李盛韬 et al., SkyReach, §3.6.2, "相关性权重算法", formula 1): how
 * relevant a link is to the topic, from the link's "extended metadata" M(url) (its anchor words,
 * §3.5.1), by word similarity rather than by exact match:
 *
 *     RW(url) = (1 / |M(url)|) · Σ_{k ∈ M(url)} r(k)    when that is ≥ c, else 0
 *     r(k)    = max_{t ∈ T} sim(k, t)
 *
 * T the topic's terms, c the user's threshold. The formula is an image missing from the seed's
 * text; this is the form its legend gives (M(url), the relevance of each of its words to the
 * topic, the threshold c, "≥ c relevant, < c not"). sim is 1 for the same word, and otherwise
 * comes from one of two sources (which one a crawl uses, `source` says):
 *
 *   list           the user's synonym list (`synonym-list.ts`): a group's similarity between
 *                  any two of its words (synonyms 1, near-synonyms 0.5–1, as the seed bands them);
 *   co-occurrence  built from the topic's own sample texts: the Dice coefficient of two words
 *                  over the samples' sentences, 2·n(k, t) / (n(k) + n(t)), for pairs seen together
 *                  in at least MIN_CO_OCCURRENCE sentences. It measures relatedness, not
 *                  synonymy (Dice 1980 / Manning & Schütze 1999 §5.4 for co-occurrence measures);
 *                  a topic given as a few keywords has no sentences to learn from, so only the
 *                  topic's own words count there.
 * Stop words (`shared/tokens/stopwords.ts`) are left out of T and of M(url).
 */
import { STOPWORDS } from '../../../shared/tokens/stopwords.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import type { SynonymGroup } from './synonym-list.ts';
import { termVector } from './term-vector.ts';

/** The topic's terms: its most frequent words (a few keywords are all kept). */
export const TOPIC_TERMS = 30;
/** Sentences two words must share before co-occurrence calls them related. */
export const MIN_CO_OCCURRENCE = 2;
/** c: below it a link counts as unrelated (RW = 0). */
export const DEFAULT_RW_THRESHOLD = 0.1;

const STOP = new Set(STOPWORDS);
const SENTENCE_END = /[。！？；!?;\n]+/u;

export type SimilaritySource = 'list' | 'co-occurrence';

export interface RwRelevance {
  /** Where word similarity comes from. */
  readonly source: SimilaritySource;
  /** T, most frequent first. */
  readonly terms: readonly string[];
  /** c. */
  readonly threshold: number;
  /** r(k) for every word with r > 0. */
  readonly related: ReadonlyMap<string, number>;
  /** RW of a link's extended metadata (its anchor). */
  of(text: string): number;
}

export interface RwOptions {
  tokenizer: Tokenizer;
  /** The topic: keywords, or sample texts (the topic directory's). */
  topic: string;
  /** The user's synonym list; absent: co-occurrence in `topic`. */
  synonyms?: readonly SynonymGroup[];
  /** c, in [0, 1]. Default 0.1. */
  threshold?: number;
}

export function createRwRelevance({ tokenizer, topic, synonyms, threshold = DEFAULT_RW_THRESHOLD }: RwOptions): RwRelevance {
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`rw: threshold must lie in [0, 1], got ${threshold}`);
  const words = (text: string) => tokenizer.tokenize(text).filter((w) => !STOP.has(w));
  const counts = termVector({ tokenize: words }, topic);
  // Most frequent first; a tie keeps the order of first appearance (Map order).
  const terms = [...counts].sort((a, b) => b[1] - a[1]).slice(0, TOPIC_TERMS).map(([term]) => term);
  if (terms.length === 0) throw new RangeError('rw: the topic text has no words');
  const related = new Map<string, number>(terms.map((t) => [t, 1]));
  const raise = (word: string, sim: number) => {
    if (sim > (related.get(word) ?? 0)) related.set(word, sim);
  };
  if (synonyms) {
    const isTerm = new Set(terms);
    for (const group of synonyms) {
      const members = [...new Set(group.words.flatMap(words))];
      if (members.some((w) => isTerm.has(w))) for (const w of members) raise(w, group.similarity);
    }
  } else {
    for (const [word, sim] of coOccurrence(topic.split(SENTENCE_END).map((s) => new Set(words(s))), terms)) raise(word, sim);
  }
  return {
    source: synonyms ? 'list' : 'co-occurrence',
    terms,
    threshold,
    related,
    of(text) {
      const m = words(text);
      if (m.length === 0) return 0;
      let sum = 0;
      for (const k of m) sum += related.get(k) ?? 0;
      const rw = sum / m.length;
      return rw >= threshold ? rw : 0;
    },
  };
}

/** max over t ∈ T of Dice(k, t) = 2·n(k, t) / (n(k) + n(t)) over the sentences, for n(k, t) ≥ MIN_CO_OCCURRENCE. */
export function coOccurrence(sentences: readonly ReadonlySet<string>[], terms: readonly string[]): Map<string, number> {
  const n = new Map<string, number>();
  const together = new Map<string, Map<string, number>>(terms.map((t) => [t, new Map()]));
  for (const sentence of sentences) {
    for (const w of sentence) n.set(w, (n.get(w) ?? 0) + 1);
    for (const t of terms) {
      if (!sentence.has(t)) continue;
      const row = together.get(t)!;
      for (const w of sentence) if (w !== t) row.set(w, (row.get(w) ?? 0) + 1);
    }
  }
  const best = new Map<string, number>();
  for (const [t, row] of together) {
    for (const [w, both] of row) {
      if (both < MIN_CO_OCCURRENCE) continue;
      const dice = (2 * both) / (n.get(w)! + n.get(t)!);
      if (dice > (best.get(w) ?? 0)) best.set(w, dice);
    }
  }
  return best;
}
