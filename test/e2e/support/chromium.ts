/**
 * Debian's Chromium with the built extension loaded, as the Chromium end-to-end tests run it.
 * The tests skip, saying why, only when Chromium is not installed (scripts/test-all.mjs installs
 * it); `LINKSCENT_CHROMIUM` points at another binary.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { distDir, ensureBuilt } from '../../support/ensure-built.ts';

export const CHROMIUM = process.env.LINKSCENT_CHROMIUM ?? '/usr/bin/chromium';

/** Why the Chromium tests cannot run here, or null when they can. */
export const chromiumSkipReason: string | null = existsSync(CHROMIUM)
  ? null
  : `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`;

export interface ExtensionBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  /** The persistent profile directory, for files a test writes (exports) next to it. */
  profile: string;
  /** The options page, open: an extension page the tests send protocol messages from. */
  options: Page;
  /** Closes the browser and removes the profile. */
  close(): Promise<void>;
}

/** Builds dist/chromium when stale, then launches a fresh profile with it loaded. */
export async function launchChromiumWithExtension(profilePrefix: string): Promise<ExtensionBrowser> {
  ensureBuilt('chromium');
  const extension = distDir('chromium');
  const profile = mkdtempSync(join(tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    // Extensions need Chromium's new headless mode, asked for by flag.
    headless: false,
    args: [
      '--headless=new',
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(serviceWorker.url()).host;
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/extension/options/index.html`);
  return {
    context,
    serviceWorker,
    extensionId,
    profile,
    options,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
