/**
 * Page features for a page classifier (the judge of harvest rate, Han et al. 2010 §4.3.2, and the
 * page-trained baseline of their §4.2, Table 2), by zone: `t:` title, `k:` meta keywords and
 * description, `b:` body text. Zones after Wang et al.'s ITFIDF (seed 002: title, keywords,
 * anchor, body, with title weighted most) and Ma 2018 (seed 004: title + meta + main content):
 * keeping the zone in the name lets a Naive Bayes learn each zone's weight instead of fixing it.
 */
import type { Tokenizer } from '../tokens/types.ts';
import type { FeatureVector } from './types.ts';
import { addTokenCounts } from './link-features.ts';

/** A page's text by zone; `PageSegments` carries the first three, `text` is its body text. */
export interface PageText {
  title: string;
  /** `<meta name="keywords">`. Default empty. */
  keywords?: string;
  /** `<meta name="description">`. Default empty. */
  description?: string;
  /** Visible body text (main content when extracted). */
  text: string;
  /** The page's link anchors, one per line: a zone of seed 002's ITFIDF. Default empty; `pageFeatures` leaves it out. */
  anchors?: string;
}

/** Zone-namespaced token counts of one page. */
export function pageFeatures(page: PageText, tokenizer: Tokenizer): FeatureVector {
  const vector: FeatureVector = new Map();
  addTokenCounts(vector, 't:', tokenizer.tokenize(page.title));
  addTokenCounts(vector, 'k:', tokenizer.tokenize(page.keywords ?? ''));
  addTokenCounts(vector, 'k:', tokenizer.tokenize(page.description ?? ''));
  addTokenCounts(vector, 'b:', tokenizer.tokenize(page.text));
  return vector;
}
