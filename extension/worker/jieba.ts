/**
 * jieba-wasm, web build, loaded once per Worker.
 *
 * The wasm URL is explicit (a `?url` import, emitted as a hashed file in dist/) rather than the
 * package's own `new URL(…, import.meta.url)` guess, so the bundle layout cannot break it.
 * Compiling the module needs `'wasm-unsafe-eval'` in the extension-pages CSP, which the Worker
 * inherits. jieba builds its dictionary on the first cut (~0.5 s), so `loadJieba` cuts once to
 * pay that before the first page waits for it.
 */
import init, { cut } from 'jieba-wasm/web';
import jiebaWasmUrl from 'jieba-wasm/web.wasm?url';
import type { ChineseCutter } from '../../shared/tokens/types.ts';

let loading: Promise<ChineseCutter> | null = null;

export function loadJieba(): Promise<ChineseCutter> {
  loading ??= (async () => {
    await init({ module_or_path: new URL(jiebaWasmUrl, import.meta.url) });
    cut('预热词典', true);
    return (text: string) => cut(text, true);
  })();
  return loading;
}
