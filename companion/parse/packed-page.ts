/**
 * A parsed page as a parse thread sends it back: its segments (and blocks) as one serialized
 * buffer, moved to the event loop without a copy, and read back only when something reads them.
 *
 * Why: the segments are most of a parsed page (about 120 per page on the crawl bench's local web,
 * against 25 link contexts), and receiving them cost the event loop more than anything else the
 * thread sent (measured: 77 of 102 µs per page to deserialize). A crawl with the nb or bfs
 * strategy reads them only where the page is parsed (which links are followable, `link-rules.ts`);
 * a strategy, a page judge or a hook that does read them gets them, the same, on first read.
 */
import { deserialize, serialize } from 'node:v8';
import type { PageSegments } from '../../shared/segments/types.ts';
import { defineLazy } from '../platform/lazy-property.ts';

type Bulk = Pick<PageSegments, 'segments' | 'blocks'>;
const BULK_KEYS: readonly (keyof Bulk)[] = ['segments', 'blocks'];

export interface PackedPage {
  /** The page's other fields (its URL, title, robots…), as they are. */
  head: Omit<PageSegments, keyof Bulk>;
  /** The page's keys in their order, so that the page read back lists them alike. */
  keys: string[];
  /** `segments` and `blocks`, serialized (`v8.serialize`, the structured clone's own format). */
  bulk: Uint8Array;
}

export function packPage(page: PageSegments): PackedPage {
  const { segments, blocks, ...head } = page;
  const bulk: Bulk = blocks === undefined ? { segments } : { segments, blocks };
  return { head, keys: Object.keys(page), bulk: serialize(bulk) };
}

/** The page, whose `segments` and `blocks` are deserialized the first time either is read. */
export function unpackPage({ head, keys, bulk }: PackedPage): PageSegments {
  let packed: Uint8Array | undefined = bulk;
  let read: Bulk | undefined;
  const load = (): Bulk => {
    if (!read) {
      read = deserialize(packed!) as Bulk;
      packed = undefined; // kept no longer than needed
    }
    return read;
  };
  const page = {} as PageSegments;
  for (const key of keys) {
    if (!(BULK_KEYS as readonly string[]).includes(key)) {
      (page as unknown as Record<string, unknown>)[key] = (head as unknown as Record<string, unknown>)[key];
      continue;
    }
    const name = key as keyof Bulk;
    defineLazy(page, name, () => load()[name]);
  }
  return page;
}

/** The buffer to transfer with a packed page: its own, or a copy when it shares one (a view into a pool). */
export function transferable(packed: PackedPage): ArrayBuffer {
  const { bulk } = packed;
  if (bulk.byteOffset !== 0 || bulk.byteLength !== bulk.buffer.byteLength) packed.bulk = new Uint8Array(bulk);
  return packed.bulk.buffer as ArrayBuffer;
}
