/**
 * Vite build of the extension, one target per run (`scripts/build-extension.mjs` runs both).
 *
 * The target comes from LINKSCENT_TARGET ('chromium' by default) so that `npx vite build` alone
 * still gives a loadable Chromium build. crxjs turns manifest.config.ts into the bundle; the
 * offscreen document is an extra HTML input (Chromium only: Firefox has no offscreen API).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crx } from '@crxjs/vite-plugin';
import { defineConfig, type UserConfig } from 'vite';
import { createManifest, ENTRIES, type BuildTarget } from './manifest.config.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * jieba-wasm's package exports hide its .wasm file; the worker imports it by this alias with
 * `?url`, so the URL is explicit and the asset is hashed into dist/ like any other.
 */
export const JIEBA_WASM_ALIAS = 'jieba-wasm/web.wasm';
const jiebaWasmPath = fileURLToPath(
  new URL('./node_modules/jieba-wasm/pkg/web/jieba_rs_wasm_bg.wasm', import.meta.url),
);

export function parseTarget(value: string | undefined): BuildTarget {
  if (value === undefined || value === '' || value === 'chromium') return 'chromium';
  if (value === 'firefox') return 'firefox';
  throw new Error(`LINKSCENT_TARGET must be "chromium" or "firefox", not "${value}"`);
}

export function createViteConfig(target: BuildTarget): UserConfig {
  const manifest = createManifest({
    target,
    contentCss: existsSync(new URL(ENTRIES.contentCss, `file://${root}/`)),
  });
  return {
    root,
    // Locales and icons are copied as they are.
    publicDir: 'public',
    clearScreen: false,
    logLevel: 'warn',
    resolve: {
      alias: [{ find: new RegExp(`^${JIEBA_WASM_ALIAS.replace('.', '\\.')}(?=\\?|$)`), replacement: jiebaWasmPath }],
    },
    plugins: [
      crx({
        manifest: manifest as never,
        browser: target === 'firefox' ? 'firefox' : 'chrome',
        // The content script as one classic file with its imports inlined, instead of crxjs's
        // loader, which import()s module chunks that it must list in web_accessible_resources
        // (so any page could fetch them, and tell the extension is there). The loader's fetches
        // put 25-45 ms between the injection and our first line on the bench's 1,000-link page.
        contentScripts: { standaloneFiles: [ENTRIES.content] },
      }),
    ],
    // Module workers: the worker imports jieba's ES module and shares chunks with the pipeline.
    worker: { format: 'es' },
    build: {
      outDir: `dist/${target}`,
      emptyOutDir: true,
      target: target === 'firefox' ? ['firefox128'] : ['chrome116'],
      // Readable stack traces from users' consoles are worth more than a few kilobytes.
      minify: false,
      sourcemap: false,
      // The 4 MB jieba wasm must stay a file, never a data: URL.
      assetsInlineLimit: 0,
      chunkSizeWarningLimit: 8192,
      rollupOptions: {
        input: target === 'chromium' ? { offscreen: ENTRIES.offscreen } : {},
      },
    },
  };
}

export default defineConfig(() => createViteConfig(parseTarget(process.env.LINKSCENT_TARGET)));
