/**
 * The local web's link graph as its server serves it, and the ceiling crawler that knows it.
 *
 * `servedGraph(web)` fetches every page reachable from the portal over HTTP (breadth-first,
 * loopback only, the calendar trap cut off after a few hundred pages), decodes each as the
 * companion does (`fetch/charset.ts`) and parses its links with the shared segment builder, so
 * the graph holds exactly the links a LinkScent crawl can see.
 *
 * `ceilingOrder(graph, onTopic, maxPages)` is the best any crawler could do without knowing URLs
 * it has not yet seen a link to: from the portal, always fetch the discovered URL nearest to the
 * topic (distance by multi-source BFS over the reversed served graph, `link-levels.ts`), ties in
 * discovery order. The floor is breadth-first, crawled for real.
 */
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import { distancesToTopic, type GraphLink } from '../../shared/labels/link-levels.ts';
import { decodeHtml } from '../../companion/fetch/charset.ts';
import type { LocalWeb } from './local-web.ts';

export interface ServedPage {
  status: number;
  /** Out-links (absolute, normalised), HTML pages only. */
  links: string[];
}

export interface ServedGraph {
  pages: Map<string, ServedPage>;
  edges: GraphLink[];
}

/** Most pages of the calendar trap read into the graph (it is endless; no ceiling crawl goes there). */
const CALENDAR_PAGES = 300;
/** Most pages read in all. */
const MAX_PAGES = 20_000;

export async function servedGraph(web: LocalWeb): Promise<ServedGraph> {
  const origins = new Set(web.origins);
  const pages = new Map<string, ServedPage>();
  const edges: GraphLink[] = [];
  const queue = [web.portal];
  const seen = new Set(queue);
  let calendar = 0;
  const inWeb = (url: string) => {
    try {
      return origins.has(new URL(url).origin);
    } catch {
      return false;
    }
  };
  // A few requests at a time: the server is in this process, each await lets it answer.
  const PARALLEL = 8;
  for (let head = 0; head < queue.length && pages.size < MAX_PAGES; ) {
    const batch = queue.slice(head, head + PARALLEL);
    head += batch.length;
    const fetched = await Promise.all(
      batch.map(async (url) => {
        const response = await fetch(url, { redirect: 'follow' });
        const type = response.headers.get('content-type') ?? '';
        const bytes = new Uint8Array(await response.arrayBuffer());
        return { url, finalUrl: response.url, status: response.status, type, bytes };
      }),
    );
    for (const { url, finalUrl, status, type, bytes } of fetched) {
      const page: ServedPage = { status, links: [] };
      pages.set(url, page);
      if (status !== 200 || !/html/.test(type)) continue;
      const { text } = decodeHtml(bytes, type);
      const segments = segmentsFromHtml(text, finalUrl);
      const links = new Set<string>();
      for (const segment of segments.segments) {
        if (segment.kind === 'link' && inWeb(segment.url) && segment.url !== url) links.add(segment.url);
      }
      page.links = [...links];
      for (const link of page.links) {
        edges.push({ pageUrl: url, url: link });
        if (seen.has(link)) continue;
        if (new URL(link).pathname.startsWith('/calendar/') && ++calendar > CALENDAR_PAGES) continue;
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return { pages, edges };
}

/** Pages of the graph on topic and served (status 200): the targets a crawl can harvest. */
export function targets(graph: ServedGraph, onTopic: (url: string) => boolean): Set<string> {
  const out = new Set<string>();
  for (const [url, page] of graph.pages) if (page.status === 200 && onTopic(url)) out.add(url);
  return out;
}

/** The ceiling crawler's fetch order: nearest to the topic first, among URLs already discovered. */
export function ceilingOrder(graph: ServedGraph, start: string, onTopic: (url: string) => boolean, maxPages: number): string[] {
  const distance = distancesToTopic(graph.edges, onTopic);
  const rank = (url: string) => distance.get(url) ?? Number.POSITIVE_INFINITY;
  // Buckets by distance, each FIFO: a priority queue with discovery order as the tie-break.
  const buckets = new Map<number, string[]>();
  const heads = new Map<number, number>();
  const push = (url: string) => {
    const d = rank(url);
    const bucket = buckets.get(d);
    if (bucket) bucket.push(url);
    else buckets.set(d, [url]);
  };
  const pop = (): string | undefined => {
    const keys = [...buckets.keys()].sort((a, b) => a - b);
    for (const d of keys) {
      const bucket = buckets.get(d)!;
      const head = heads.get(d) ?? 0;
      if (head < bucket.length) {
        heads.set(d, head + 1);
        return bucket[head];
      }
    }
    return undefined;
  };
  const seen = new Set([start]);
  push(start);
  const order: string[] = [];
  while (order.length < maxPages) {
    const url = pop();
    if (url === undefined) break;
    order.push(url);
    for (const link of graph.pages.get(url)?.links ?? []) {
      if (seen.has(link)) continue;
      seen.add(link);
      push(link);
    }
  }
  return order;
}
