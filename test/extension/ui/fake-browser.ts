/**
 * Test support: the one fake allowed in these tests, a `browser` object.
 *
 * The real `browser` exists only inside a browser (the end-to-end test drives that). This one
 * answers messages through a handler table the test writes, records every message sent, and
 * serves `i18n.getMessage` from the real `_locales` files with Chrome's placeholder rules, so a
 * missing key or a broken placeholder shows up here as it would in the extension.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

export type LocaleMessages = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

export function readLocale(locale: 'en' | 'zh_CN'): LocaleMessages {
  return JSON.parse(readFileSync(resolve(root, `public/_locales/${locale}/messages.json`), 'utf8')) as LocaleMessages;
}

/** `browser.i18n` over one locale: named placeholders `$NAME$` → their content → `$1…$9`. */
export function fakeI18n(locale: 'en' | 'zh_CN' = 'en') {
  const messages = readLocale(locale);
  return {
    getMessage(name: string, substitutions?: string | string[]): string {
      if (name === '@@ui_locale') return locale;
      const entry = messages[name];
      if (entry === undefined) return '';
      const args = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
      const positional = (text: string) => text.replace(/\$(\d)/g, (_, n: string) => args[Number(n) - 1] ?? '');
      return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (whole, placeholder: string) => {
        const content = entry.placeholders?.[placeholder.toLowerCase()]?.content;
        return content === undefined ? whole : positional(content);
      });
    },
  };
}

/** A message handler table: type → reply (or a function of the message). */
export type Handler = ((message: Record<string, unknown>) => unknown) | object | string | number | boolean | null | undefined;
export type Handlers = Record<string, Handler>;

export function fakeBrowser(handlers: Handlers, options: { locale?: 'en' | 'zh_CN'; tab?: { id?: number; url?: string } } = {}) {
  const sent: Record<string, unknown>[] = [];
  let optionsOpened = 0;
  return {
    sent,
    get optionsOpened() {
      return optionsOpened;
    },
    runtime: {
      async sendMessage(message: unknown): Promise<unknown> {
        const request = message as Record<string, unknown> & { type: string };
        sent.push(structuredClone(request));
        const handler = handlers[request.type];
        if (handler === undefined) return undefined;
        return typeof handler === 'function' ? (handler as (m: Record<string, unknown>) => unknown)(request) : structuredClone(handler);
      },
      async openOptionsPage(): Promise<void> {
        optionsOpened++;
      },
    },
    i18n: fakeI18n(options.locale),
    tabs: {
      async query(): Promise<{ id?: number; url?: string }[]> {
        return options.tab === undefined ? [] : [options.tab];
      },
    },
  };
}
