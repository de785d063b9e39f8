/**
 * The element tables and attribute tests behind `SegmentBuilder`.
 *
 * Everything here reads tag names and attribute values only, never computed style: the
 * companion has no layout engine, and a rule that looked at CSS in the extension would make the
 * two sides disagree on the same HTML (DESIGN.md: same HTML, same segments, same scores).
 */

/** Reads one attribute of the element being opened: `null` / `undefined` when it is absent. */
export type AttributeReader = (name: string) => string | null | undefined;

/**
 * Elements whose whole subtree is dropped: code and styling (script, style, template), content
 * that is not rendered as text or is fallback for something else (noscript, noframes, iframe,
 * object, embed, canvas, audio, video, datalist), foreign content (svg, math), and form controls
 * whose text is a value, not page prose (select, textarea).
 */
export const DROPPED_ELEMENTS: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'noscript', 'noframes', 'svg', 'math', 'iframe', 'object', 'embed',
  'canvas', 'audio', 'video', 'datalist', 'select', 'textarea',
]);

/**
 * Elements that start and end a block: their boundaries become `break` segments, which Han et
 * al. 2010 §3.3's context window may cross at most once. The CSS 2 / HTML "display: block" (and
 * list-item, table-*) elements, plus `br` and `hr`.
 */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li',
  'listing', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre', 'search',
  'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'xmp',
]);

/**
 * Block elements that group other blocks into a region of the page: a list, a table, a section,
 * a navigation bar. The innermost one around a block is its container; blocks of one container
 * form one content block of seed 002's content block partition (§4, `shared/blocks/`).
 * `body` and `html` are not containers: text directly in them forms container 0.
 */
export const CONTAINER_ELEMENTS: ReadonlySet<string> = new Set([
  'article', 'aside', 'blockquote', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figure',
  'footer', 'form', 'header', 'main', 'menu', 'nav', 'ol', 'search', 'section', 'table', 'ul',
]);

const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\s*(?:!\s*important\s*)?(?:;|$)/i;
const VISIBILITY_HIDDEN = /(?:^|;)\s*visibility\s*:\s*(?:hidden|collapse)\s*(?:!\s*important\s*)?(?:;|$)/i;

/**
 * True when the element's own attributes hide it: `hidden` (any value, `until-found` included),
 * `aria-hidden="true"`, or an inline `style` with `display: none` or `visibility: hidden`.
 * Hidden menus and off-screen duplicates are common on portals; their links are not what the
 * user sees next to a link. (A child may override `visibility: hidden` with `visible`; we drop
 * the subtree anyway, a simplification both producers share.)
 */
export function isHiddenByAttributes(attr: AttributeReader): boolean {
  if (attr('hidden') != null) return true;
  if (attr('aria-hidden')?.trim().toLowerCase() === 'true') return true;
  const style = attr('style');
  return style != null && style !== '' && (DISPLAY_NONE.test(style) || VISIBILITY_HIDDEN.test(style));
}

/**
 * Collapse every run of white space to one space and trim. JavaScript's `\s` is Unicode white
 * space, so the no-break spaces (`&nbsp;`) and ideographic spaces (U+3000) Chinese pages use as
 * spacers collapse too, and a BOM disappears: they separate words, they are not words.
 *
 * Equal to `text.replace(/\s+/g, ' ').trim()`, but it runs once per text run and link of every
 * page (540,142 times on the crawl bench's 1,665 pages, two thirds of them white space
 * only), so it scans the characters itself and only calls the regular expression when a run
 * inside the text is more than one plain space; most runs come back as they are, or trimmed.
 */
export function collapseWhiteSpace(text: string): string {
  const length = text.length;
  let start = 0;
  while (start < length && isWhiteSpace(text.charCodeAt(start))) start++;
  if (start === length) return '';
  let end = length;
  while (isWhiteSpace(text.charCodeAt(end - 1))) end--;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isWhiteSpace(code) && (code !== 0x20 || isWhiteSpace(text.charCodeAt(i + 1)))) {
      return text.slice(start, end).replace(/\s+/g, ' ');
    }
  }
  return start === 0 && end === length ? text : text.slice(start, end);
}

/**
 * The UTF-16 code units JavaScript's `\s` (and `trim`) match: ASCII tab to carriage return and
 * space, no-break space, the Unicode space separators (Zs), line and paragraph separators, BOM.
 */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `rel="… nofollow …"`: rel is a space-separated, case-insensitive token list. */
export function relHasNofollow(rel: string | null | undefined): boolean {
  return rel != null && rel.toLowerCase().split(/\s+/).includes('nofollow');
}

/** Parse a `<meta name="robots">` content value (`noindex, nofollow`, `none`, `all`, …). */
export function parseRobotsContent(content: string): { noindex: boolean; nofollow: boolean } {
  const tokens = content.toLowerCase().split(/[\s,]+/);
  const none = tokens.includes('none');
  return { noindex: none || tokens.includes('noindex'), nofollow: none || tokens.includes('nofollow') };
}
