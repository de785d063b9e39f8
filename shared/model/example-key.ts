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

/**
 * FNV-1a 64 of a string's UTF-8 bytes, as 16 hex digits. The 64-bit state is kept in four 16-bit
 * limbs so every product stays an exact double: h ← (h ⊕ byte) · (2^40 + 0x1b3) mod 2^64.
 */
export function fnv1a64(text: string): string {
  // Offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const step = (byte: number) => {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8); // + h · 2^40: limb 0 lands in limb 2, shifted by 8
    let t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    t2 += t1 >>> 16;
    t3 += t2 >>> 16;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  };
  for (let n = 0; n < text.length; n++) {
    let code = text.codePointAt(n)!;
    if (code > 0xffff) n++; // the low surrogate was read with the high one
    else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd; // a lone surrogate, as TextEncoder does
    if (code < 0x80) step(code);
    else if (code < 0x800) {
      step(0xc0 | (code >> 6));
      step(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      step(0xe0 | (code >> 12));
      step(0x80 | ((code >> 6) & 0x3f));
      step(0x80 | (code & 0x3f));
    } else {
      step(0xf0 | (code >> 18));
      step(0x80 | ((code >> 12) & 0x3f));
      step(0x80 | ((code >> 6) & 0x3f));
      step(0x80 | (code & 0x3f));
    }
  }
  const hex = (limb: number) => limb.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
