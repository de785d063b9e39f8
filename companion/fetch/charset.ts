/**
 * Turning an HTML page's bytes into text the way a browser would, so the companion sees the same
 * characters the extension sees in the live DOM. GBK, GB2312, Big5 and UTF-8 are all common on
 * the Chinese web, and labels are often wrong or missing.
 *
 * Order of evidence (the HTML standard's, https://html.spec.whatwg.org/#encoding-sniffing-algorithm):
 *   1. a byte order mark: it is unambiguous, and browsers let it override the header;
 *   2. the `charset` parameter of the HTTP Content-Type header;
 *   3. `<meta charset>` or `<meta http-equiv=Content-Type content="…charset=…">` in the first 4 KiB;
 *   4. otherwise UTF-8; and if the bytes are not valid UTF-8, GB18030 when that decodes them
 *      cleanly (legacy Chinese pages without any label are far more often GBK than anything
 *      else), else UTF-8 with replacement characters.
 * Labels are normalised as the Encoding Standard does: gb2312, gbk, x-gbk, cp936… decode as
 * GB18030 (a superset of both); big5 decodes as Big5-HKSCS (browsers' Big5); latin1 and ascii
 * as windows-1252. A label we cannot decode is ignored and the next piece of evidence used.
 */
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'header' | 'meta' | 'default' | 'fallback';

export interface DecodedHtml {
  text: string;
  /** The encoding actually used, normalised (`utf-8`, `gb18030`, `big5`, `windows-1252`, …). */
  charset: string;
  source: CharsetSource;
}

/** How far into the page `<meta charset>` is looked for. */
export const META_SCAN_BYTES = 4096;

const ALIASES: Record<string, string> = {
  'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'x-unicode20utf8': 'utf-8',
  gb18030: 'gb18030', gbk: 'gb18030', 'x-gbk': 'gb18030', gb2312: 'gb18030', 'gb_2312': 'gb18030',
  'gb_2312-80': 'gb18030', csgb2312: 'gb18030', 'csiso58gb231280': 'gb18030', chinese: 'gb18030',
  'iso-ir-58': 'gb18030', cp936: 'gb18030', 'windows-936': 'gb18030', 'euc-cn': 'gb18030', 'x-euc-cn': 'gb18030',
  big5: 'big5', 'big5-hkscs': 'big5', 'cn-big5': 'big5', csbig5: 'big5', 'x-x-big5': 'big5', cp950: 'big5', 'x-big5': 'big5',
  'iso-8859-1': 'windows-1252', latin1: 'windows-1252', 'us-ascii': 'windows-1252', ascii: 'windows-1252',
  'windows-1252': 'windows-1252', 'cp1252': 'windows-1252', 'l1': 'windows-1252',
  'utf-16': 'utf-16le', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be',
};

/** iconv-lite's name for each normalised charset where it differs. */
const ICONV_NAME: Record<string, string> = { big5: 'big5hkscs' };

/**
 * A charset label as found in a header or meta tag → the normalised name we decode with, or
 * `undefined` when neither the alias table nor iconv-lite knows it.
 */
export function normalizeCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const key = label.trim().replace(/^["']|["']$/g, '').trim().toLowerCase();
  if (key === '') return undefined;
  const alias = ALIASES[key];
  if (alias) return alias;
  return iconv.encodingExists(key) ? key : undefined;
}

/** The `charset` parameter of a Content-Type header value, if any (not yet normalised). */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i);
  return match ? (match[2] ?? match[1]) : undefined;
}

/** The encoding named by a byte order mark, and the mark's length. */
export function sniffBom(bytes: Uint8Array): { charset: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return undefined;
}

/**
 * The charset a `<meta>` tag declares in the first `META_SCAN_BYTES` bytes. Read as latin1 so
 * any ASCII-compatible page can be scanned before its encoding is known; comments are skipped
 * so a commented-out old declaration does not win.
 */
export function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(-->|$)/g, '');
  for (const tag of head.matchAll(/<meta\b[^>]*>/gi)) {
    const text = tag[0];
    const direct = text.match(/\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i);
    if (direct) {
      // A meta found by an ASCII scan cannot really be UTF-16: the Encoding Standard says use UTF-8.
      return /^utf-16/i.test(direct[1]!) ? 'utf-8' : direct[1];
    }
  }
  return undefined;
}

/** Decodes `bytes` with `charset` (a normalised name), dropping a leading BOM. */
export function decodeWith(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(bytes); // strips a UTF-8 BOM itself
  const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), ICONV_NAME[charset] ?? charset);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Decodes an HTML page's bytes following the order of evidence in this file's header. */
export function decodeHtml(bytes: Uint8Array, contentTypeHeader?: string): DecodedHtml {
  const bom = sniffBom(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.charset), charset: bom.charset, source: 'bom' };

  const fromHeader = normalizeCharset(charsetFromContentType(contentTypeHeader));
  if (fromHeader) return { text: decodeWith(bytes, fromHeader), charset: fromHeader, source: 'header' };

  const fromMeta = normalizeCharset(sniffMetaCharset(bytes));
  if (fromMeta) return { text: decodeWith(bytes, fromMeta), charset: fromMeta, source: 'meta' };

  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8', source: 'default' };
  } catch {
    const gb = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'gb18030');
    if (!gb.includes('\ufffd')) return { text: gb, charset: 'gb18030', source: 'fallback' };
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8', source: 'default' };
  }
}
