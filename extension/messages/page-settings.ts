/**
 * A page's settings without asking the background: what the background keeps in
 * `storage.local` for content scripts to read as they start, so a page need not wait for a
 * 'page/settings' round trip (a message to a service worker that may be asleep, and three
 * IndexedDB reads there) before it can send its first links.
 *
 * Why storage.local: a content script reads it directly, in Chromium and in Firefox (MV3, with
 * the `storage` permission), and it is there at injection whatever the background is doing.
 * `storage.session` would need `setAccessLevel` for content scripts, which Firefox lacks; a
 * dynamic content script (`scripting.registerContentScripts`) takes files only, not data.
 *
 * What is published is the input of the background's own decision (the active topic's window,
 * the per-page cap, the excluded sites, the companion's port), never the pairing token: the
 * content script leaves the companion's pages alone by their port and by a `token=` query on
 * loopback, as the background does; a page elsewhere whose URL holds the token itself would send
 * its links, and the background, which checks every 'page/links' message against the token,
 * answers it with no verdict and stores nothing of it. The background writes the settings
 * before it asks open pages to refresh, so a page that starts after a change reads the new ones.
 */
import { carriesToken, isCompanionPage } from '../companion-client/companion-pages.ts';
import { parseUrl } from '../../shared/urls/normalize-url.ts';
import type { ContentToBackgroundReplies } from './content-to-background.ts';

/** The `storage.local` key the background writes and content scripts read. */
export const PAGE_SETTINGS_KEY = 'linkscent.pageSettings';

/** What a content script needs to decide, as 'page/settings' would, whether and how to run. */
export interface PublishedPageSettings {
  version: 1;
  /** A topic is active (the content script does nothing without one). */
  active: boolean;
  /** The active topic's context window W. */
  window: number;
  /** `ExtensionSettings.maxLinksPerPage`. */
  maxLinks: number;
  /** `ExtensionSettings.excludedSites`. */
  excludedSites: string[];
  /** `CompanionSettings.port`: the companion's pages are left alone. */
  companionPort: number;
}

export type PageSettings = ContentToBackgroundReplies['page/settings'];

/** Whether `host` is excluded: the host itself or one of its subdomains is listed. */
export function isExcluded(host: string, excludedSites: readonly string[]): boolean {
  const bare = host.toLowerCase().replace(/^www\./, '');
  return excludedSites.some((site) => bare === site || bare.endsWith(`.${site}`));
}

function isPublished(value: unknown): value is PublishedPageSettings {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v['version'] === 1 &&
    typeof v['active'] === 'boolean' &&
    Number.isInteger(v['window']) &&
    (v['window'] as number) > 0 &&
    Number.isInteger(v['maxLinks']) &&
    (v['maxLinks'] as number) > 0 &&
    Array.isArray(v['excludedSites']) &&
    (v['excludedSites'] as unknown[]).every((site) => typeof site === 'string') &&
    Number.isInteger(v['companionPort'])
  );
}

/**
 * What 'page/settings' answers for `pageUrl` under `published` (a `storage.local` value), or null
 * when nothing valid is published yet (then only the background can say).
 */
export function pageSettingsFrom(published: unknown, pageUrl: string): PageSettings | null {
  if (!isPublished(published)) return null;
  const url = parseUrl(pageUrl);
  const enabled =
    published.active &&
    url !== undefined &&
    !isExcluded(url.hostname, published.excludedSites) &&
    !isCompanionPage(pageUrl, published.companionPort) &&
    // Without the token, which is never published: only its loopback `token=` rule applies.
    !carriesToken(pageUrl, '');
  return { enabled, window: published.window, maxLinks: published.maxLinks };
}
