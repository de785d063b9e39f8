/**
 * An HTML page's body left undecoded until someone reads its text. A crawl hands the bytes to a
 * parse thread, which decodes them there (`parse/parse-page.ts`), off the event loop: decoding
 * a page and copying its text to the thread were 4 % of a breadth-first crawl's event loop on the
 * crawl bench, where copying the bytes is a tenth of that. A caller that reads `html` (a hook, the
 * page classifier's training) gets the same text, decoded on first read by the same function.
 */
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
  const lazy = <K extends 'html' | 'charset' | 'charsetSource'>(key: K, field: (d: DecodedHtml) => FetchedPage[K]): PropertyDescriptor => ({
    get: () => field((decoded ??= decodeBody(page.body))),
    // Written (a hook's own text): an ordinary property from then on.
    set: (value: FetchedPage[K]) => Object.defineProperty(page, key, { value, writable: true, enumerable: true, configurable: true }),
    enumerable: true,
    configurable: true,
  });
  Object.defineProperties(page, {
    html: lazy('html', (d) => d.text),
    charset: lazy('charset', (d) => d.charset),
    charsetSource: lazy('charsetSource', (d) => d.source),
  });
  return page;
}
