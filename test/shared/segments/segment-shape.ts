/**
 * Test support: a segment stream as short strings, so expected streams read like the page:
 * `'text'` for a text run, `'[anchor](url)'` for a link (`!nofollow` appended), `'|'` for a break.
 */
import type { Segment } from '../../../shared/segments/index.ts';

export function shape(segments: readonly Segment[]): string[] {
  return segments.map((segment) => {
    if (segment.kind === 'break') return '|';
    if (segment.kind === 'text') return segment.text;
    return `[${segment.anchor}](${segment.url})${segment.nofollow ? '!nofollow' : ''}`;
  });
}
