/**
 * Token-count vectors and their cosine, the similarity of seed 004's best-first value. (The
 * thesis normalises a Euclidean distance of TF-IDF weights, eq. 5-2; a crawl has no corpus to
 * take IDF from before it starts, and cosine of counts gives the same 0 = unrelated, 1 = same
 * direction range.)
 */
import type { Tokenizer } from '../../../shared/tokens/types.ts';

/** Token → count. */
export type TermVector = Map<string, number>;

export function termVector(tokenizer: Tokenizer, ...texts: string[]): TermVector {
  const vector: TermVector = new Map();
  for (const text of texts) {
    if (!text) continue;
    for (const token of tokenizer.tokenize(text)) vector.set(token, (vector.get(token) ?? 0) + 1);
  }
  return vector;
}

/** cos(a, b) = a·b / (|a| |b|), in [0, 1] for counts; 0 when either vector is empty. */
export function cosine(a: TermVector, b: TermVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [token, count] of small) dot += count * (large.get(token) ?? 0);
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}

function norm(v: TermVector): number {
  let sum = 0;
  for (const count of v.values()) sum += count * count;
  return Math.sqrt(sum);
}
