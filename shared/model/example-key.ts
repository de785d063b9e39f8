/**
 * The identity of a training example: one link context (target URL, page, anchor, context on
 * both sides). The label and the source are not part of it, so the same context labeled again
 * (a person correcting a pattern) is the same example, not a second one; the topic is not either,
 * because the database keys examples by `[topic+key]`.
 *
 * FNV-1a, 64-bit, over the UTF-8 bytes of the fields, each preceded by its length in UTF-16 code
 * units and a ':' (so no two field lists give the same byte stream). 64 bits because 32 would
 * expect a collision near 77,000 examples; here that is about 5 billion. Not a security hash.
 */
import type { ExampleRow, LabeledLink } from './types.ts';

export type ExampleIdentity = Pick<LabeledLink, 'url' | 'pageUrl' | 'anchor' | 'before' | 'after'>;

/** 16 hex digits identifying the link context. */
export function exampleKey(link: ExampleIdentity): string {
  let text = '';
  for (const field of [link.url, link.pageUrl, link.anchor, link.before, link.after]) text += `${field.length}:${field}`;
  return fnv1a64(text);
}

/**
 * The stored rows of `links`: one per `[topic+key]`, the first met kept, added at `now`. The
 * fields of a link are copied in their order and `key`, `addedAt` follow (an `id`, `key` or
 * `addedAt` the link carried from elsewhere is dropped: the new row gets its own).
 */
export function exampleRows(links: Iterable<LabeledLink>, now: number): ExampleRow[] {
  const rows = new Map<string, ExampleRow>();
  for (const link of links) {
    const { id: _id, key: _key, addedAt: _addedAt, ...fields } = link as ExampleRow;
    const key = exampleKey(fields);
    const id = JSON.stringify([fields.topic, key]);
    if (!rows.has(id)) rows.set(id, { ...fields, key, addedAt: now });
  }
  return [...rows.values()];
}

const utf8 = new TextEncoder();
/** The UTF-8 bytes of the string being hashed, grown as needed and kept: no allocation per call. */
let bytes = new Uint8Array(4096);

/**
 * FNV-1a 64 of a string's UTF-8 bytes (TextEncoder's, so a lone surrogate counts as U+FFFD), as
 * 16 hex digits. The 64-bit state is kept in four 16-bit limbs so every product stays an exact
 * double: h ← (h ⊕ byte) · (2^40 + 0x1b3) mod 2^64. One loop over the encoded bytes: a model
 * file's check hashes every stored example again, and byte-by-byte encoding in a closure made
 * that a third of a second of a crawl's start-up for 9,000 examples.
 */
export function fnv1a64(text: string): string {
  // A UTF-16 code unit takes at most 3 UTF-8 bytes (a surrogate pair, two units, takes 4).
  if (bytes.length < text.length * 3) bytes = new Uint8Array(text.length * 3);
  const { written } = utf8.encodeInto(text, bytes);
  // Offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < written; i++) {
    h0 ^= bytes[i]!;
    // · 0x1b3 limb by limb, + h · 2^40 (limbs 0 and 1 land in limbs 2 and 3, shifted by 8), carries up.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  const hex = (limb: number) => limb.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
