/**
 * Interface text for the popup and options pages, from `_locales` via `browser.i18n`.
 *
 * Static text lives in the HTML as `data-i18n="key"` (text) or `data-i18n-placeholder`,
 * `data-i18n-title`, `data-i18n-aria-label` (attributes), so the pages ship no English in
 * markup; dynamic text goes through `Translate`. Text is only ever set with `textContent` or
 * as an attribute value: message strings are data, never markup.
 */

/** The part of `browser.i18n` the pages use. */
export interface I18nLike {
  getMessage(messageName: string, substitutions?: string[] | string): string;
}

/** A message by key, with `$1…$9` substitutions. Falls back to the key, so a gap is visible. */
export type Translate = (key: string, ...substitutions: (string | number)[]) => string;

export function createTranslate(i18n: I18nLike): Translate {
  return (key, ...substitutions) => {
    const text = i18n.getMessage(key, substitutions.map(String));
    return text === '' ? key : text;
  };
}

const ATTRIBUTES = [
  ['data-i18n-placeholder', 'placeholder'],
  ['data-i18n-title', 'title'],
  ['data-i18n-aria-label', 'aria-label'],
] as const;

/** Fills every `data-i18n*` element under `root` with its message. */
export function localize(root: ParentNode, t: Translate): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    element.textContent = t(element.dataset['i18n']!);
  }
  for (const [source, target] of ATTRIBUTES) {
    for (const element of root.querySelectorAll<HTMLElement>(`[${source}]`)) {
      element.setAttribute(target, t(element.getAttribute(source)!));
    }
  }
}

/** The browser's UI language as a BCP 47 tag (`zh-CN`), or undefined when it is not known. */
export function uiLocale(t: Translate): string | undefined {
  const tag = t('@@ui_locale').replace(/_/g, '-');
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined; // no such message (the key came back): let Intl use its default
  }
}

/** Formats a fraction in [0, 1] as a whole percentage in the UI language. */
export function percent(fraction: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(fraction);
}
