/**
 * Level labels for the level classifier (`model/level-classifier.ts`): each link's distance, in
 * hops, from its target to the nearest on-topic page, derived from a link graph that a crawl
 * recorded (`collect`'s labeled links are its edges: `pageUrl → url`; a crawl's own store is
 * another). Seed 001's training phase ("compute each link's Q value, then bin it"), with the
 * bins of Diligenti et al. 2000's context graphs: layer d = pages d links away from a target.
 *
 * Distances come from one breadth-first search over the reversed edges, started from every
 * on-topic page at once (multi-source BFS), so the whole graph costs O(V + E):
 *
 *   d(u) = 0                              u on topic
 *   d(u) = 1 + min_{u→v} d(v)             u fetched (its out-links are known)
 *   d(u) unknown                          u neither on topic nor fetched
 *
 * Only fetched pages have known out-links, so a distance computed on a partial graph is an upper
 * bound: more of the graph can only shorten it. That is why a crawl recomputes them as it grows.
 */

/** A link of the graph: from the page it was found on to its target. */
export interface GraphLink {
  pageUrl: string;
  url: string;
}

/**
 * d(u) for every page from which an on-topic page can be reached through fetched pages
 * (on-topic pages included, at 0). Pages absent from the map have no known path.
 */
export function distancesToTopic(links: Iterable<GraphLink>, isOnTopic: (url: string) => boolean): Map<string, number> {
  const parents = new Map<string, string[]>();
  const nodes = new Set<string>();
  for (const { pageUrl, url } of links) {
    nodes.add(pageUrl);
    nodes.add(url);
    if (pageUrl === url) continue;
    const list = parents.get(url);
    if (list) list.push(pageUrl);
    else parents.set(url, [pageUrl]);
  }
  const distance = new Map<string, number>();
  const queue: string[] = [];
  for (const node of nodes) {
    if (isOnTopic(node)) {
      distance.set(node, 0);
      queue.push(node);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    const d = distance.get(node)! + 1;
    for (const parent of parents.get(node) ?? []) {
      if (!distance.has(parent)) {
        distance.set(parent, d);
        queue.push(parent);
      }
    }
  }
  return distance;
}

/**
 * The level of a link to `url`: min(d(url), L − 1); L − 1 ("that far or more, or never") for a
 * fetched page with no known path; null when the target was never fetched and is not on topic,
 * since nothing is known of where it leads (such links are left out of the level training).
 */
export function linkLevel(url: string, distances: ReadonlyMap<string, number>, fetched: ReadonlySet<string>, levels: number): number | null {
  const d = distances.get(url);
  if (d !== undefined) return Math.min(d, levels - 1);
  return fetched.has(url) ? levels - 1 : null;
}
