/**
 * The topic lexicon: domain terms whose presence is one feature (Han et al. 2010, feature
 * group 2: "anchor contains a finance term", "context contains a finance term").
 *
 * Matching is by substring of the normalised text, not by token, so that a term jieba would cut
 * differently in different sentences (`股票投资` vs `股票` + `投资者`) still matches.
 */
import { normalizeText } from '../tokens/tokenizer.ts';

/**
 * Parses a lexicon file: one term per line. A `#` at the start of a line or after white space
 * starts a comment (so `c#` is a term, `股票  # stocks` is `股票`). Terms are trimmed; empty
 * lines dropped; duplicates (equal after `normalizeText`) keep their first spelling.
 */
export function parseLexicon(text: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const line of text.replace(/^\uFEFF/u, '').split(/\r\n|\r|\n/u)) {
    const term = line.replace(/(?:^|\s)#.*$/u, '').trim();
    if (term === '') continue;
    const key = normalizeText(term);
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(term);
  }
  return terms;
}

/** Normalised, non-empty terms per lexicon array: lexicons are reused for every link of a crawl. */
const normalisedLexicons = new WeakMap<readonly string[], readonly string[]>();

function normalisedTerms(lexicon: readonly string[]): readonly string[] {
  let terms = normalisedLexicons.get(lexicon);
  if (terms === undefined) {
    terms = [...new Set(lexicon.map((term) => normalizeText(term.trim())).filter((t) => t !== ''))];
    normalisedLexicons.set(lexicon, terms);
  }
  return terms;
}

/** Whether any of `texts`, normalised, contains any lexicon term, normalised, as a substring. */
export function containsLexiconTerm(lexicon: readonly string[], ...texts: string[]): boolean {
  const terms = normalisedTerms(lexicon);
  if (terms.length === 0) return false;
  return texts.some((text) => {
    const normal = normalizeText(text);
    return terms.some((term) => normal.includes(term));
  });
}
