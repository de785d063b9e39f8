/**
 * Visible links first: the links the user can see now are sent, scored and painted before the
 * rest, and the per-page cap drops links far down the page rather than those in view.
 *
 * One read-only pass of `getBoundingClientRect` (no style or layout writes in between, so the
 * browser lays out at most once), in counted steps so it can run in idle slices.
 */

/** 0 in the viewport, 1 within a viewport's height of it, 2 elsewhere, 3 not rendered. */
export type VisibilityRank = 0 | 1 | 2 | 3;

export interface Viewport {
  width: number;
  height: number;
}

/** How near the viewport a box is. A box with no size (display: none, empty) ranks last. */
export function visibilityRank(rect: DOMRectReadOnly, viewport: Viewport): VisibilityRank {
  if (rect.width === 0 && rect.height === 0) return 3;
  const inColumns = rect.right > 0 && rect.left < viewport.width;
  if (inColumns && rect.bottom > 0 && rect.top < viewport.height) return 0;
  if (inColumns && rect.bottom > -viewport.height && rect.top < 2 * viewport.height) return 1;
  return 2;
}

/**
 * `items` ordered by rank, page order kept within a rank; yields every `batch` rect reads.
 */
export function* visibleFirst<T>(
  items: readonly T[],
  elementOf: (item: T) => Element,
  viewport: Viewport,
  batch = 256,
): Generator<void, T[], void> {
  const ranked: { item: T; rank: VisibilityRank }[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    ranked.push({ item, rank: visibilityRank(elementOf(item).getBoundingClientRect(), viewport) });
    if ((i + 1) % batch === 0) yield;
  }
  // Array.prototype.sort is stable (ES2019), so page order survives within a rank.
  ranked.sort((a, b) => a.rank - b.rank);
  return ranked.map(({ item }) => item);
}
