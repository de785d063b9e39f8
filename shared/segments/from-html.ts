/**
 * Segments from HTML text: the companion's producer (pipeline stage 1).
 *
 * htmlparser2's streaming `Parser` turns the markup into open / text / close events, which go
 * straight into the shared `SegmentBuilder`: no tree is built, so a 2 MB portal page costs one
 * pass. htmlparser2 already applies the HTML5 implied-end-tag rules that matter here (an open
 * `<p>`, `<li>`, `<td>`, `<a>` closed by the next one; a stray `</p>` as an empty paragraph;
 * `</br>` as `<br>`; everything closed at the end), so for well-formed and commonly malformed
 * pages the events match what a browser's DOM gives `segmentsFromDom`. Where they cannot (foster
 * parenting in tables, formatting-element reconstruction), see test/shared/segments/parity.test.ts.
 *
 * The caller decodes the bytes (charset from the Content-Type header or `<meta charset>`, e.g.
 * GBK with iconv-lite) before: this function takes a string.
 */
import { Parser } from 'htmlparser2';
import { SegmentBuilder, type SegmentBuilderOptions } from './segment-builder.ts';
import type { PageSegments } from './types.ts';

/** Segment one HTML document fetched from `pageUrl` (links resolve against it or `<base href>`). */
export function segmentsFromHtml(html: string, pageUrl: string, options: SegmentBuilderOptions = {}): PageSegments {
  const builder = new SegmentBuilder(pageUrl, options);
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        builder.openElement(name, (attribute) => (Object.hasOwn(attributes, attribute) ? attributes[attribute] : undefined));
      },
      ontext(data) {
        builder.text(data);
      },
      onclosetag(name) {
        builder.closeElement(name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return builder.finish();
}
