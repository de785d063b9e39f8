/**
 * The extension's manifest, for both targets, as crxjs input (`defineManifest`).
 *
 * One source, two shapes:
 * - Chromium: the background is a module service worker; the Web Worker that scores links lives
 *   in an offscreen document (reason WORKERS), hence the `offscreen` permission.
 * - Firefox: MV3 has no background service worker and no offscreen API; the background is an
 *   event page (`background.scripts`) that starts the Worker itself, and the add-on needs a
 *   gecko id to keep its IndexedDB across restarts.
 *
 * Permissions are the minimum the features need: `contextMenus` (mark a link), `activeTab`
 * (the popup reads the current tab's URL), `storage` (the settings a content script reads as it
 * starts, extension/messages/page-settings.ts; no install warning), `offscreen` (Chromium only). Content scripts run on
 * http(s) pages through `content_scripts.matches`, which needs no host permission of its own.
 * The one host permission is loopback over http (`COMPANION_ORIGINS`): the background calls the
 * companion's service on 127.0.0.1, which sends no CORS headers (docs/service-api.md); no port
 * in the pattern because the user chooses the port.
 * `'wasm-unsafe-eval'` is in the extension-pages CSP only: jieba-wasm runs in the Worker, which
 * inherits that policy; content scripts never load WASM.
 */
import { defineManifest } from '@crxjs/vite-plugin';
import { COMPANION_ORIGINS } from './extension/companion-client/host-permissions.ts';
import packageJson from './package.json' with { type: 'json' };

export type BuildTarget = 'chromium' | 'firefox';

/** Firefox add-on id: stable, so the profile keeps its data across reinstalls. */
export const GECKO_ID = 'linkscent@linkscent.invalid';

/** Source paths the manifest points at (crxjs bundles them and rewrites the paths). */
export const ENTRIES = {
  background: 'extension/background/index.ts',
  content: 'extension/content/index.ts',
  contentCss: 'extension/content/highlight.css',
  popup: 'extension/popup/index.html',
  options: 'extension/options/index.html',
  offscreen: 'extension/offscreen/offscreen.html',
} as const;

export const EXTENSION_PAGES_CSP = "script-src 'self' 'wasm-unsafe-eval'; object-src 'self';";

export interface ManifestOptions {
  target: BuildTarget;
  /** Include the content stylesheet (present once the content script ships one). */
  contentCss: boolean;
}

/** The manifest object for one target (plain data: the build test checks it). */
export function createManifest({ target, contentCss }: ManifestOptions) {
  const firefox = target === 'firefox';
  return {
    manifest_version: 3,
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // Chrome accepts only dotted numbers here; "0.1.0-rc" would be refused.
    version: packageJson.version.replace(/[^0-9.].*$/, ''),
    minimum_chrome_version: firefox ? undefined : '116',
    action: { default_popup: ENTRIES.popup, default_title: '__MSG_extName__' },
    options_ui: { page: ENTRIES.options, open_in_tab: true },
    background: firefox
      ? { scripts: [ENTRIES.background], type: 'module' as const }
      : { service_worker: ENTRIES.background, type: 'module' as const },
    permissions: firefox ? ['contextMenus', 'activeTab', 'storage'] : ['contextMenus', 'activeTab', 'storage', 'offscreen'],
    host_permissions: [...COMPANION_ORIGINS],
    content_scripts: [
      {
        matches: ['http://*/*', 'https://*/*'],
        js: [ENTRIES.content],
        ...(contentCss ? { css: [ENTRIES.contentCss] } : {}),
        run_at: 'document_start',
        all_frames: false,
      },
    ],
    content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
    ...(firefox
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              // Module background scripts, module workers and MV3 event pages all work from here.
              strict_min_version: '128.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  };
}

export default defineManifest(createManifest({ target: 'chromium', contentCss: false }) as never);
