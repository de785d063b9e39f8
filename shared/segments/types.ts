/**
 * Segments: the first stage of the link-scent pipeline.
 *
 * A page becomes one ordered stream of text runs, links and block boundaries. Both producers
 * (from a live DOM in the extension, from HTML text in the companion) feed the same
 * `SegmentBuilder`, so the stream for a given document is the same on both sides.
 */

/** A run of visible text outside any link. White space is already collapsed. */
export interface TextSegment {
  kind: 'text';
  text: string;
}

/** A followable link: absolute, normalised URL and its anchor text (image alt when no text). */
export interface LinkSegment {
  kind: 'link';
  url: string;
  anchor: string;
  /** `rel="nofollow"` on the link itself. */
  nofollow: boolean;
}

/** A block boundary (p, li, td, div, h1–h6, br, …). Never two in a row, never first or last. */
export interface BreakSegment {
  kind: 'break';
}

export type Segment = TextSegment | LinkSegment | BreakSegment;

/**
 * Where one block of the segment stream (the segments between two breaks) sits in the document:
 * what `shared/blocks/` splits pages by.
 */
export interface SegmentBlock {
  /** The innermost block element around the block's first content (`p`, `li`, `td`, `h1`, `div`…); '' when none but body. */
  tag: string;
  /**
   * The innermost container element around it (`segment-rules.ts`, `CONTAINER_ELEMENTS`), by its
   * number in document order among containers, from 1; 0 when none. Blocks with the same number
   * share a container.
   */
  container: number;
}

/** What `<meta name="robots">` said. */
export interface MetaRobots {
  noindex: boolean;
  nofollow: boolean;
}

/** One page in segment form, plus the page-level facts later stages and the crawler need. */
export interface PageSegments {
  pageUrl: string;
  /** The URL links are resolved against: `<base href>` when present, else `pageUrl`. */
  baseUrl: string;
  title: string;
  /** `<meta name="description">` and `<meta name="keywords">`, for the page classifier. */
  description: string;
  keywords: string;
  robots: MetaRobots;
  segments: Segment[];
  /**
   * One entry per block, in order: `blocks[i]` describes the segments after the i-th break (the
   * first block before any). Both producers fill it; absent on pages built by hand, where
   * `shared/blocks/` treats every block as its own container with no known tag.
   */
  blocks?: SegmentBlock[];
}
