/**
 * A minimal WARC reader of our own, to check LinkScent's WARC files without trusting the library
 * that wrote them (warcio): it finds the gzip members (each must hold exactly one record), parses
 * the WARC header block by hand, takes exactly Content-Length bytes of block, expects CRLF CRLF
 * after it, and checks the block and payload digests with node:crypto, in whichever algorithm and
 * encoding (hex or base32) the record declares.
 *
 * Why tools/: the tests and the records bench both read WARCs with it, and neither should import
 * the other's support code. It imports Node built-ins only (a boundary test holds that): a reader
 * sharing code with the writer could share its mistakes.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

export interface MinimalRecord {
  /** WARC header names lower-cased; the version line apart. */
  version: string;
  headers: Map<string, string>;
  block: Buffer;
  /** For request/response records: the block after the HTTP header block; else the block. */
  payload: Buffer;
  /** The member's byte range in the file. */
  offset: number;
  length: number;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** The gzip members of a file: a member ends where the bytes so far gunzip on their own. */
export function gzipMembers(file: Buffer): { offset: number; bytes: Buffer }[] {
  const members: { offset: number; bytes: Buffer }[] = [];
  let start = 0;
  while (start < file.length) {
    if (file[start] !== 0x1f || file[start + 1] !== 0x8b) throw new Error(`no gzip member at byte ${start}`);
    let end = -1;
    for (let at = start + 18; at <= file.length; at++) {
      if (at < file.length && !(file[at] === 0x1f && file[at + 1] === 0x8b && file[at + 2] === 8)) continue;
      try {
        gunzipSync(file.subarray(start, at));
        end = at;
        break;
      } catch {
        // not the end of this member yet
      }
    }
    if (end < 0) throw new Error(`gzip member at byte ${start} does not end`);
    members.push({ offset: start, bytes: file.subarray(start, end) });
    start = end;
  }
  return members;
}

/** Whether `declared` (`<algorithm>:<value>`, value hex or base32) is the digest of `data`, recomputed with node:crypto. */
export function digestMatches(declared: string, data: Buffer): boolean {
  const [label, value] = declared.split(':', 2) as [string, string];
  const algorithm = label.toLowerCase().replace('-', '');
  const digest = createHash(algorithm === 'sha1' ? 'sha1' : algorithm === 'sha256' ? 'sha256' : algorithm).update(data).digest();
  const hex = digest.toString('hex');
  return value.toLowerCase() === hex || value.toUpperCase() === base32(digest);
}

function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Every record of a WARC file, each checked (throws on the first thing wrong). */
export function readMinimalWarc(file: Buffer): MinimalRecord[] {
  return gzipMembers(file).map(({ offset, bytes }) => {
    const plain = gunzipSync(bytes);
    const headEnd = plain.indexOf(CRLFCRLF);
    if (headEnd < 0) throw new Error(`record at ${offset}: no end of the WARC header block`);
    const [version, ...lines] = plain.subarray(0, headEnd).toString('utf8').split('\r\n');
    if (version !== 'WARC/1.1') throw new Error(`record at ${offset}: version line ${version}`);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length'));
    const blockStart = headEnd + 4;
    const block = plain.subarray(blockStart, blockStart + length);
    if (block.length !== length) throw new Error(`record at ${offset}: Content-Length ${length} but ${block.length} bytes`);
    const tail = plain.subarray(blockStart + length);
    if (!tail.equals(CRLFCRLF)) throw new Error(`record at ${offset}: ${tail.length} bytes after the block instead of CRLF CRLF (one record per member)`);
    const type = headers.get('warc-type');
    let payload = block;
    if (type === 'request' || type === 'response') {
      const httpEnd = block.indexOf(CRLFCRLF);
      if (httpEnd < 0) throw new Error(`record at ${offset}: no end of the HTTP header block`);
      payload = block.subarray(httpEnd + 4);
    }
    const blockDigest = headers.get('warc-block-digest');
    if (blockDigest !== undefined && !digestMatches(blockDigest, block)) throw new Error(`record at ${offset}: block digest ${blockDigest} does not match`);
    const payloadDigest = headers.get('warc-payload-digest');
    if (payloadDigest !== undefined && !digestMatches(payloadDigest, payload)) throw new Error(`record at ${offset}: payload digest ${payloadDigest} does not match`);
    return { version, headers, block, payload, offset, length: bytes.length };
  });
}
