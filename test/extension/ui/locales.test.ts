// @vitest-environment happy-dom
/**
 * Interface text: every string the popup, options page and content script use exists in both
 * `_locales` (en and zh_CN), with the same placeholders, in the form Chrome and Firefox accept.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_KEYS } from '../../../extension/messages/i18n-keys.ts';
import { readLocale } from './fake-browser.ts';

const root = resolve(import.meta.dirname, '../../..');
const en = readLocale('en');
const zh = readLocale('zh_CN');

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

const uiDirs = ['extension/popup', 'extension/options', 'extension/content', 'extension/ui'].map((dir) => join(root, dir));

/** Keys named in the pages' markup and string literals in the UI code that look like keys. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of uiDirs.flatMap((dir) => files(dir, /\.html$/))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)) keys.add(match[1]!);
  }
  for (const file of uiDirs.flatMap((dir) => files(dir, /\.ts$/))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/'((?:popup|options|companion|tip|ext|menu)[A-Z]\w*)'/g)) keys.add(match[1]!);
  }
  return keys;
}

const placeholderNames = (entry: { placeholders?: Record<string, unknown> } | undefined) =>
  Object.keys(entry?.placeholders ?? {}).sort();

describe('_locales', () => {
  it('en and zh_CN have the same keys and the same placeholders', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) expect(placeholderNames(zh[key]), key).toEqual(placeholderNames(en[key]));
  });

  it('has every key the UI, the manifest and the background use', () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(60);
    for (const key of [...used, ...MESSAGE_KEYS]) {
      expect(en[key], `en: ${key}`).toBeDefined();
      expect(zh[key], `zh_CN: ${key}`).toBeDefined();
    }
  });

  it('is well formed for the browsers: names, placeholders and no stray $', () => {
    for (const [locale, messages] of [['en', en], ['zh_CN', zh]] as const) {
      for (const [key, entry] of Object.entries(messages)) {
        expect(key, locale).toMatch(/^[A-Za-z0-9_]+$/);
        expect(entry.message.trim(), `${locale} ${key}`).not.toBe('');
        const named = [...entry.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)].map((m) => m[1]!.toLowerCase()).sort();
        expect([...new Set(named)], `${locale} ${key}`).toEqual(placeholderNames(entry));
        for (const placeholder of Object.values(entry.placeholders ?? {})) expect(placeholder.content).toMatch(/^\$[1-9]$/);
        // With the placeholders taken out, no `$` may remain (a literal one is written `$$`).
        expect(entry.message.replace(/\$[A-Za-z0-9_]+\$/g, ''), `${locale} ${key}`).not.toMatch(/\$/);
      }
    }
  });

  it('is translated: the Chinese interface is in Chinese', () => {
    const translated = Object.keys(zh).filter((key) => /\p{Script=Han}/u.test(zh[key]!.message));
    // Only examples of host names and URL patterns stay the same in both languages.
    expect(Object.keys(zh).filter((key) => !translated.includes(key))).toEqual([
      'optionsPatternExample',
      'optionsExcludedExample',
    ]);
  });
});

describe('page data is never parsed as markup', () => {
  it('no UI or content source uses innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    const offenders = uiDirs
      .flatMap((dir) => files(dir, /\.ts$/))
      .filter((file) => /\b(?:innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser)\b/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
