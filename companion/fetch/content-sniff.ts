/**
 * Deciding from headers and the first bytes whether a response is an HTML page worth reading.
 * The crawler only extracts links from HTML, so everything else is skipped as early as
 * possible: by Content-Type before a body byte is read, or by the first 1 KiB when the type is
 * missing or lies (servers that label every download `text/html` are common).
 */

/** How many leading bytes the sniffers look at. */
export const SNIFF_BYTES = 1024;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Types that say nothing about the content, treated like a missing header and sniffed. */
const UNKNOWN_TYPES = new Set(['', 'unknown/unknown', 'application/unknown', '*/*']);

/** `text/html; charset=gbk` → `text/html`; `undefined` → `''`. */
export function mimeEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

export function isHtmlType(essence: string): boolean {
  return HTML_TYPES.has(essence);
}

/** True when the header gives no usable type and the body must be sniffed. */
export function isUnknownType(essence: string): boolean {
  return UNKNOWN_TYPES.has(essence);
}

/** Leading bytes of common binary formats; enough to refuse the usual mislabelled downloads. */
const MAGIC: { name: string; bytes: number[] }[] = [
  { name: 'PNG', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { name: 'GIF', bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: 'JPEG', bytes: [0xff, 0xd8, 0xff] },
  { name: 'PDF', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { name: 'ZIP', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'gzip', bytes: [0x1f, 0x8b] },
  { name: 'RIFF (WebP/AVI/WAV)', bytes: [0x52, 0x49, 0x46, 0x46] },
  { name: '7z', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: 'ELF', bytes: [0x7f, 0x45, 0x4c, 0x46] },
];

/** The binary format the bytes start with, if one we know. */
export function magicNumber(bytes: Uint8Array): string | undefined {
  return MAGIC.find((m) => m.bytes.every((b, i) => bytes[i] === b))?.name;
}

/**
 * Why these leading bytes are not text, or `undefined` if they may be. A NUL byte never occurs
 * in real HTML, except in UTF-16, which announces itself with a byte order mark.
 */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const magic = magicNumber(head);
  if (magic) return `${magic} data`;
  const utf16 = (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe);
  if (!utf16 && head.includes(0)) return 'NUL bytes in the first 1 KiB';
  return undefined;
}

/** Tags the HTML standard's sniffing algorithm recognises at the start of an untyped body. */
const HTML_START = /^<(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link)[\s>/]|^<!--/i;

/**
 * What an untyped body looks like from its first bytes: `binary`, `html`, or plain `text`
 * (which the crawler skips too). Leading whitespace and a UTF-8 BOM are allowed before the tag,
 * and an XML declaration before `<html` (XHTML).
 */
export function sniffUntyped(bytes: Uint8Array): 'html' | 'binary' | 'text' {
  if (binaryReason(bytes)) return 'binary';
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES))
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  if (HTML_START.test(text)) return 'html';
  if (/^<\?xml[^>]*>\s*(<!doctype\s+html|<html)/i.test(text)) return 'html';
  return 'text';
}
