/**
 * The user's settings as the messages carry them: extension-wide settings, the companion
 * pairing, and what the options page sends to create or edit a topic. Per-topic settings
 * (threshold, window, features) live in `Topic` (shared/model/types.ts).
 */
import type { FeatureGroup, FeatureVersion } from '../../shared/features/types.ts';
import type { NbForm, ThresholdMode } from '../../shared/model/types.ts';
import type { CrawlScope } from '../../shared/service-api/types.ts';

/** Extension-wide settings (per-topic ones, threshold and window, live in `Topic`). */
export interface ExtensionSettings {
  /** The topic links are scored for; null = none yet (nothing is highlighted). */
  activeTopicId: string | null;
  /** Host names where the content script does nothing (a host also covers its subdomains). */
  excludedSites: string[];
  /** At most this many links per page are extracted and scored. Default 2000. */
  maxLinksPerPage: number;
}

/**
 * The pairing with the companion's loopback service and the last crawl started from here. Kept
 * in the same `settings` table as `ExtensionSettings` (keys `companion.port`, `companion.token`,
 * `companion.lastCrawl`), but never written into an exported model file and kept across an
 * import: the token is this installation's secret, and model files travel.
 */
export interface CompanionSettings {
  /** Port of `linkscent serve` on 127.0.0.1. Default 7431. */
  port: number;
  /** The pairing token `linkscent serve` printed; '' = not paired. */
  token: string;
  /** The last crawl started from the popup, so reopening the popup shows it; null = none yet. */
  lastCrawl: LastCrawl | null;
  /** The popup's last choice of limits and scope, offered again next time. */
  crawlChoice: CrawlChoice;
}

/** What the user sets in the popup before "Crawl from here". */
export interface CrawlChoice {
  /** Pages to fetch at most. Default 200. */
  maxPages: number;
  /** Links away from the page at most. Default 3. */
  maxDepth: number;
  /** Same site (the page's host), same domain, or anywhere. Default 'any'. */
  scope: CrawlScope;
}

export interface LastCrawl {
  /** The companion's crawl id. */
  id: string;
  /** The extension's topic the crawl was started for (labels are pulled into it). */
  topicId: string;
  startedAt: number;
  /** The limits and scope it was started with (absent for crawls started before they were asked). */
  choice?: CrawlChoice;
}

/** What the options page sends to create or edit a topic: the id is absent for a new one. */
export interface TopicInput {
  id?: string;
  name: string;
  lexicon?: string[];
  positive?: string[];
  negative?: string[];
  /** Default 0.5. */
  threshold?: number;
  /** Default 2. */
  featureGroup?: FeatureGroup;
  /** Default `DEFAULT_NB_FORM` (mixed). */
  form?: NbForm;
  /** Default 80. */
  window?: number;
  /** URL host and path words as features. Default true for a new topic (`NEW_TOPIC_DEFAULTS`). */
  urlTokens?: boolean;
  /** The feature rules (`Topic.featureVersion`). Default `FEATURE_VERSION` for a new topic; an edit keeps the topic's. */
  featureVersion?: FeatureVersion;
  /** How the threshold is set (see `Topic.thresholdMode`). Default 'f1' for a new topic. */
  thresholdMode?: ThresholdMode;
  /** Required with thresholdMode 'precision': in (0, 1). */
  targetPrecision?: number;
}
