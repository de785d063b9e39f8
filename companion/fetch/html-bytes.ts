/**
 * An HTML page's body left undecoded until someone reads its text. A crawl hands the bytes to a
 * parse thread, which decodes them there (`parse/parse-page.ts`), off the event loop: decoding
 * a page and copying its text to the thread were 4 % of a breadth-first crawl's event loop on the
 * crawl bench, where copying the bytes is a tenth of that. A caller that reads `html` (a hook, the
 * page classifier's training) gets the same text, decoded on first read by the same function.
 */
import { defineLazy } from '../platform/lazy-property.ts';
import { decodeHtml, type DecodedHtml } from './charset.ts';
import type { FetchedPage, HtmlBytes } from './types.ts';

/** The page's text and charset, from its bytes (`charset.ts`): the one decode, wherever it runs. */
export function decodeBody(body: HtmlBytes): DecodedHtml {
  return decodeHtml(body.bytes, body.contentType);
}

/**
 * Gives `page` (which carries `body`) its `html`, `charset` and `charsetSource` as properties
 * that decode the body the first time one is read, and keep what they found.
 */
export function decodeOnRead(page: FetchedPage & { body: HtmlBytes }): FetchedPage {
  let decoded: DecodedHtml | undefined;
  const decode = (): DecodedHtml => (decoded ??= decodeBody(page.body));
  defineLazy<FetchedPage, 'html'>(page, 'html', () => decode().text);
  defineLazy<FetchedPage, 'charset'>(page, 'charset', () => decode().charset);
  defineLazy<FetchedPage, 'charsetSource'>(page, 'charsetSource', () => decode().source);
  return page;
}
