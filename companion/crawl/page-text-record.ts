/**
 * What `crawl --store-text` keeps of a page: its title and main text (`shared/segments/page-text.ts`
 * `mainText`), each cut at a cap, since a stranger's page decides how long they are.
 */
import { mainText } from '../../shared/segments/page-text.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import type { StoredText } from '../store/records.ts';

/** Most characters of a page's main text kept (about 300 KB of Chinese in UTF-8). */
export const TEXT_CAP = 100_000;
/** Most characters of a page's title kept. */
export const TITLE_CAP = 1_000;

/** `text` cut to at most `cap` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const end = /[\uD800-\uDBFF]/.test(text[cap - 1]!) ? cap - 1 : cap;
  return text.slice(0, end);
}

export function storedText(page: PageSegments): StoredText {
  const text = mainText(page);
  const title = cut(page.title, TITLE_CAP);
  const kept = cut(text, TEXT_CAP);
  return { title, text: kept, truncated: title.length < page.title.length || kept.length < text.length };
}
