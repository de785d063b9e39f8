/**
 * Test support: puts one of the extension's own HTML pages (popup, options) into the test
 * document, without its `<script>` and stylesheet tags (the test calls the page's start function
 * itself, with a fake `browser`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

export function loadPage(path: 'extension/popup/index.html' | 'extension/options/index.html'): void {
  const html = readFileSync(resolve(root, path), 'utf8')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link\b[^>]*>/g, '');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.replaceChildren(...[...parsed.head.childNodes].map((node) => document.importNode(node, true)));
  document.body.replaceChildren(...[...parsed.body.childNodes].map((node) => document.importNode(node, true)));
}

/** Every element whose text should have come from `_locales` but is still empty. */
export function untranslated(): Element[] {
  return [...document.querySelectorAll('[data-i18n]')].filter((element) => (element.textContent ?? '').trim() === '');
}
