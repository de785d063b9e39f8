/**
 * The knowledge base of feature expansion: Ma 2018 (seed 004) §4.3.1 and §4.3.3. The thesis
 * links entities in the training text to CN-DBpedia and takes each entity's aliases and
 * categories as extra features ("防空导弹" → 面空导弹, 地空导弹, 军事, 武器). LinkScent has no
 * entity service to call; the user gives the same knowledge as a file, one term a line with its
 * related terms:
 *
 *     防空导弹: 面空导弹, 地空导弹, 军事, 武器
 *     股票：证券，A股、沪深股市      # full-width separators work too
 *     基金                          # a term with no related term: kept as a feature all the same
 *
 * `#` at the start of a line or after white space starts a comment. Related terms are split at
 * `,` `，` `、` `;` `；`. A text "mentions" a term when its normalised form holds the term's
 * normalised form (as `lexicon.ts` matches lexicon terms: jieba may cut a term differently in
 * different sentences).
 */
import { normalizeText } from '../tokens/tokenizer.ts';

export interface KnowledgeEntry {
  term: string;
  related: string[];
}

export type KnowledgeBase = readonly KnowledgeEntry[];

/** Bounds on a knowledge-base file: a stranger's file decides how much we read. */
export const KNOWLEDGE_BASE_LIMITS = {
  /** Characters of the whole file. */
  chars: 1 << 20,
  /** Entries (lines with a term). */
  entries: 10_000,
  /** Related terms of one entry. */
  related: 100,
  /** Characters of one term. */
  termChars: 64,
} as const;

/** A bad knowledge-base file; the message is `name:line: problem`, or `name: problem` for the whole file. */
export class KnowledgeBaseError extends Error {
  override readonly name = 'KnowledgeBaseError';
}

const SEPARATOR = /[:：]/u;
const LIST_SEPARATOR = /[,，、;；]/u;

/** Parses the file's text; throws `KnowledgeBaseError` at the first problem, naming `name` and the line. */
export function parseKnowledgeBase(text: string, name: string): KnowledgeEntry[] {
  const limits = KNOWLEDGE_BASE_LIMITS;
  if (text.length > limits.chars) throw new KnowledgeBaseError(`${name}: ${text.length} characters, at most ${limits.chars}`);
  const entries: KnowledgeEntry[] = [];
  const lines = text.replace(/^\uFEFF/u, '').split(/\r\n|\r|\n/u);
  lines.forEach((raw, index) => {
    const where = `${name}:${index + 1}`;
    const line = raw.replace(/(?:^|\s)#.*$/u, '').trim();
    if (line === '') return;
    const colon = line.search(SEPARATOR);
    const term = (colon < 0 ? line : line.slice(0, colon)).trim();
    if (term === '') throw new KnowledgeBaseError(`${where}: no term before the colon`);
    if (colon < 0 && LIST_SEPARATOR.test(term)) throw new KnowledgeBaseError(`${where}: a list without a term; write "term: related, related"`);
    const related = colon < 0 ? [] : line.slice(colon + 1).split(LIST_SEPARATOR).map((part) => part.trim()).filter((part) => part !== '');
    if (related.length > limits.related) throw new KnowledgeBaseError(`${where}: ${related.length} related terms, at most ${limits.related}`);
    for (const one of [term, ...related]) {
      if (one.length > limits.termChars) throw new KnowledgeBaseError(`${where}: the term "${one.slice(0, 20)}…" is ${one.length} characters, at most ${limits.termChars}`);
      if (SEPARATOR.test(one)) throw new KnowledgeBaseError(`${where}: more than one colon`);
    }
    if (entries.length === limits.entries) throw new KnowledgeBaseError(`${where}: more than ${limits.entries} terms`);
    entries.push({ term, related });
  });
  if (entries.length === 0) throw new KnowledgeBaseError(`${name}: no terms`);
  return entries;
}

/** Every term of the knowledge base, head terms and related ones: the features expansion may add. */
export function knowledgeTerms(base: KnowledgeBase): string[] {
  return [...new Set(base.flatMap((entry) => [entry.term, ...entry.related]))];
}

/**
 * Feature expansion (seed 004 §4.3.1): the related terms of every knowledge-base term the texts
 * mention, each once, in the file's order. A related term is not expanded in turn.
 */
export function expandTerms(base: KnowledgeBase, ...texts: string[]): string[] {
  const normal = texts.map(normalizeText);
  const out = new Set<string>();
  for (const entry of base) {
    const term = normalizeText(entry.term);
    if (normal.some((text) => text.includes(term))) for (const related of entry.related) out.add(related);
  }
  return [...out];
}
