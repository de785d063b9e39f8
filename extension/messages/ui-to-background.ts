/**
 * Popup and options page → background (`runtime.sendMessage` from this extension's own pages;
 * the background answers nothing else).
 */
import type { Label, Topic } from '../../shared/model/types.ts';
import type { Unlisted } from './request-types.ts';
import type { HeldOut, ImportResult } from './worker-api.ts';
import type { CompanionSettings, CrawlChoice, ExtensionSettings, TopicInput } from './settings.ts';
import type { CompanionFailure, CompanionStatusView, Counts, CrawlView, Failure } from './views.ts';

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
  /** Merges a model file into the database; `replace` (asked for apart, after a confirmation) empties it first. */
  | { type: 'db/import'; fileText: string; replace?: boolean }
  /** The stored pairing (port and token), to fill the options page's form. */
  | { type: 'companion/get' }
  /** Stores port and token (token '' forgets the pairing), then asks the companion for its status. */
  | { type: 'companion/pair'; port: number; token: string }
  | { type: 'companion/status' }
  /**
   * Starts a crawl of the companion from `pageUrl` with the active topic's model, within the
   * popup's `choice` of pages, depth and scope (remembered for next time; absent: the last one).
   */
  | { type: 'crawl/start'; pageUrl: string; choice?: CrawlChoice }
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
    /** The threshold in use and its precision and recall on held-out examples; null with no topic. */
    heldOut: HeldOut | null;
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
  'db/import': ({ ok: true } & ImportResult) | Failure;
  'companion/get': Pick<CompanionSettings, 'port' | 'token' | 'crawlChoice'>;
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

/** Compile-time check that the list names every request type (the router relies on it). */
const everyUiTypeListed: [Unlisted<UiToBackground['type'], typeof UI_TYPES>] extends [never] ? true : never = true;
void everyUiTypeListed;
