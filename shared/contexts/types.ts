/** A link in its page: Han et al. 2010's unit of classification. */
export interface LinkContext {
  /** Absolute, normalised target URL. */
  url: string;
  /** The page the link was found on. */
  pageUrl: string;
  anchor: string;
  /** Context before the link: the previous link's anchor, or nearby text (seed 000 §3.3). */
  before: string;
  /** Context after the link: the next link's anchor, or nearby text. */
  after: string;
  /**
   * `true` when the link had `rel="nofollow"`; absent otherwise (so stored records stay lean).
   * A crawler that honours nofollow reads it here, without going back to the segments.
   */
  nofollow?: boolean;
}
