/**
 * The extension's one message protocol, named by direction (STYLE.md 4).
 *
 *   content → background   ContentToBackground   (runtime.sendMessage from a tab)
 *   ui → background        UiToBackground        (popup and options pages)
 *   background → content   BackgroundToContent   (tabs.sendMessage)
 *   background → worker    WorkerApi             (comlink, `worker-api.ts`; through the offscreen
 *                                                 document in Chromium, directly in Firefox's
 *                                                 event page)
 *
 * Every request type maps to its reply type in the `…Replies` interfaces, so a sender gets a
 * typed answer and a handler must return one. The background checks the sender before acting:
 * content messages only from a tab of this extension's content script, UI messages only from
 * this extension's own pages.
 *
 * Message names are stable: the content script, popup and options are written against them.
 *
 * Build contract (manifest.config.ts reads these paths, keep them in step):
 *   extension/content/index.ts        content script entry (document_idle, http and https pages)
 *   extension/content/highlight.css   content stylesheet, injected by the manifest (CSP-safe)
 *   extension/popup/index.html        toolbar popup
 *   extension/options/index.html      options page (opened in a tab)
 *   public/_locales/{en,zh_CN}/messages.json   with at least the keys in `MESSAGE_KEYS` below
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { CrawlInfo } from '../../shared/service-api/types.ts';
import type { CompanionProblem } from '../companion-client/client.ts';
import type { FeatureGroup } from '../../shared/features/types.ts';
import type { Label, LabelSource, NbForm, Score, Topic } from '../../shared/model/types.ts';

/** i18n keys the manifest and the background use (besides whatever the UI uses). */
export const MESSAGE_KEYS = [
  'extName',
  'extDescription',
  'menuMarkLinkOn',
  'menuMarkLinkOff',
] as const;

/** A link context as the content script found it, with its index on the page for painting. */
export interface PageLink extends LinkContext {
  /** Index of the link element in the content script's own registry for this page. */
  ref: number;
}

/** Highlight strength: 0 = below threshold; 1..3 = on topic, weak to strong. */
export type Level = 0 | 1 | 2 | 3;

/** What a page needs to paint one link: no model, no lexicon, only the verdict. */
export interface LinkVerdict {
  ref: number;
  /** P(+ | link), in [0, 1]. */
  p: number;
  level: Level;
  /** Top features, for the hover explanation (largest |weight| first). */
  top: Score['top'];
}

// ---- settings --------------------------------------------------------------------------

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
}

export interface LastCrawl {
  /** The companion's crawl id. */
  id: string;
  /** The extension's topic the crawl was started for (labels are pulled into it). */
  topicId: string;
  startedAt: number;
}

/** A crawl as the popup shows it. */
export interface CrawlView {
  info: CrawlInfo;
  /** The dashboard page of this crawl, token included (opened in a new tab). */
  dashboardUrl: string;
}

/** What `GET /api/status` says, reduced to what the options page shows. */
export interface CompanionStatusView {
  version: string;
  port: number;
  /** Crawls the companion knows (any state). */
  crawls: number;
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
  /** Default `DEFAULT_NB_FORM` (multinomial). */
  form?: NbForm;
  /** Default 80. */
  window?: number;
}

// ---- content → background -------------------------------------------------------------

export type ContentToBackground =
  /** First message of a page: should it run, and with which window and cap? */
  | { type: 'page/settings'; pageUrl: string }
  /** One batch of a page's links (visible links first). `first` on the first batch of a page
   * load or of a refresh; labeled examples are taken from these contexts by URL pattern. */
  | { type: 'page/links'; pageUrl: string; title: string; links: PageLink[]; first: boolean }
  /** The page's running totals after painting, for the toolbar badge. */
  | { type: 'page/count'; pageUrl: string; onTopic: number; total: number };

export interface ContentToBackgroundReplies {
  'page/settings': {
    enabled: boolean;
    /** Context window W in characters for `extractContexts`. */
    window: number;
    maxLinks: number;
  };
  'page/links': { verdicts: LinkVerdict[] };
  'page/count': { ok: true };
}

// ---- ui (popup, options) → background ----------------------------------------------------

export interface Counts {
  /** Labeled examples of the active topic. */
  byLabel: Record<'on' | 'off', number>;
  bySource: Partial<Record<LabelSource, number>>;
  /** Distinct pages whose links were seen (any topic). */
  pagesSeen: number;
}

/** A failure the UI shows as is (already a sentence). */
export interface Failure {
  ok: false;
  error: string;
}

/**
 * Why a companion request failed: the client's problems (the service's side), and the
 * extension's own reasons a crawl cannot start or its labels cannot be pulled.
 */
export type CrawlProblem =
  | CompanionProblem
  /** No active topic. */
  | 'no-topic'
  /** The active topic has no labeled example: the companion would get an untrained model. */
  | 'no-examples'
  /** The tab shows no http(s) page. */
  | 'not-web-page'
  /** No crawl was started from this browser. */
  | 'no-crawl'
  /** The crawl's topic was deleted here since. */
  | 'topic-gone'
  /** The companion's labels file is not a model file (`detail` says why). */
  | 'bad-labels'
  /** Something unexpected here (the worker, storage): `error` says what, untranslated. */
  | 'internal';

/** A failure of a companion request: the UI translates `problem`, else shows `error`. */
export interface CompanionFailure extends Failure {
  problem: CrawlProblem;
  /** The companion's own sentence, when it gave one. */
  detail?: string;
  /** The port that was called (for "not running on port P"). */
  port: number;
}

export type UiToBackground =
  | { type: 'topics/list' }
  | { type: 'topics/save'; topic: TopicInput }
  | { type: 'topics/delete'; topicId: string }
  | { type: 'topics/activate'; topicId: string }
  | { type: 'settings/get' }
  | { type: 'settings/save'; settings: Partial<Omit<ExtensionSettings, 'activeTopicId'>> }
  | { type: 'stats/get'; tabId?: number }
  | { type: 'page/mark'; tabId?: number; pageUrl: string; label: Label }
  | { type: 'site/toggle'; host: string; enabled: boolean }
  | { type: 'db/export' }
  | { type: 'db/import'; fileText: string }
  /** The stored pairing (port and token), to fill the options page's form. */
  | { type: 'companion/get' }
  /** Stores port and token (token '' forgets the pairing), then asks the companion for its status. */
  | { type: 'companion/pair'; port: number; token: string }
  | { type: 'companion/status' }
  /** Starts a crawl of the companion from `pageUrl` with the active topic's model. */
  | { type: 'crawl/start'; pageUrl: string }
  /** The last crawl started from here, fresh from the companion; null when there is none. */
  | { type: 'crawl/get' }
  /** Merges the labels the last crawl learned into its topic's examples (no duplicates). */
  | { type: 'crawl/pull-labels' };

export interface UiToBackgroundReplies {
  'topics/list': { topics: Topic[]; activeId: string | null };
  'topics/save': { ok: true; topic: Topic } | Failure;
  'topics/delete': { ok: true };
  'topics/activate': { ok: true } | Failure;
  'settings/get': ExtensionSettings;
  'settings/save': { ok: true; settings: ExtensionSettings } | Failure;
  'stats/get': {
    topic: Topic | null;
    counts: Counts;
    /** Accuracy on held-out examples, or null when there are too few. */
    heldOutAccuracy: number | null;
    /** How many held-out examples that accuracy is measured on. */
    heldOutN: number;
    /** On-topic links on the tab's page, or null when the page has no content script. */
    pageOnTopicLinks: number | null;
    /** Whether LinkScent runs on the tab's site; null when the tab has no http(s) page. */
    siteEnabled: boolean | null;
    /** The tab's host, for `site/toggle`; null as above. */
    host: string | null;
  };
  /** `labeled`: stored contexts that pointed to the page, now labeled (source 'page'). */
  'page/mark': { ok: true; labeled: number } | Failure;
  'site/toggle': { ok: true; settings: ExtensionSettings };
  /** The whole database as a Dexie export file (dexie-export-import's format). */
  'db/export': { ok: true; fileText: string; fileName: string } | Failure;
  /** On failure nothing was changed. */
  'db/import': { ok: true; examples: number } | Failure;
  'companion/get': Pick<CompanionSettings, 'port' | 'token'>;
  /** `status` is null when the pairing was forgotten (token ''). */
  'companion/pair': { ok: true; status: CompanionStatusView | null } | CompanionFailure | Failure;
  'companion/status': { ok: true; status: CompanionStatusView } | CompanionFailure;
  'crawl/start': { ok: true; crawl: CrawlView } | CompanionFailure;
  /** `paired`: whether a token is stored (the popup says how to pair when not). */
  'crawl/get': { ok: true; crawl: CrawlView | null; paired: boolean } | CompanionFailure;
  /**
   * `offered`: examples of the crawl's topic in the companion's file; `added`: new here (learned by
   * the model at once); `duplicates`: already stored, left as they were.
   */
  'crawl/pull-labels': { ok: true; offered: number; added: number; duplicates: number } | CompanionFailure;
}

// ---- background → content ---------------------------------------------------------------

export type BackgroundToContent =
  /** The model, topic or settings changed: ask `page/settings` again, send links again. */
  | { type: 'verdicts/refresh' }
  /** Remove every highlight (site excluded, topic gone). */
  | { type: 'highlight/clear' }
  /** The page's current totals (for the popup). */
  | { type: 'page/summary' };

export interface BackgroundToContentReplies {
  'verdicts/refresh': { ok: true };
  'highlight/clear': { ok: true };
  'page/summary': { onTopic: number; total: number };
}

// ---- helpers ----------------------------------------------------------------------------

/** The typed request helper's shape: a request of type K gets the reply of type K. */
export type ReplyOf<
  Req extends { type: string },
  Replies,
  K extends Req['type'],
> = K extends keyof Replies ? Replies[K] : never;

/** The request of type K out of a union. */
export type RequestOf<Req extends { type: string }, K extends Req['type']> = Extract<Req, { type: K }>;

export const CONTENT_TYPES = ['page/settings', 'page/links', 'page/count'] as const satisfies readonly ContentToBackground['type'][];
export const UI_TYPES = [
  'topics/list',
  'topics/save',
  'topics/delete',
  'topics/activate',
  'settings/get',
  'settings/save',
  'stats/get',
  'page/mark',
  'site/toggle',
  'db/export',
  'db/import',
  'companion/get',
  'companion/pair',
  'companion/status',
  'crawl/start',
  'crawl/get',
  'crawl/pull-labels',
] as const satisfies readonly UiToBackground['type'][];

/** Compile-time check that the lists above name every request type (the router relies on it). */
type Unlisted<All extends string, Listed extends readonly string[]> = Exclude<All, Listed[number]>;
const everyContentTypeListed: [Unlisted<ContentToBackground['type'], typeof CONTENT_TYPES>] extends [never] ? true : never = true;
const everyUiTypeListed: [Unlisted<UiToBackground['type'], typeof UI_TYPES>] extends [never] ? true : never = true;
void everyContentTypeListed;
void everyUiTypeListed;
