/**
 * Small DOM helpers shared by the popup and the options page.
 *
 * Everything text-like goes in through `textContent` or `setAttribute`: topic names, patterns
 * and error lines come from the user or from imported files and must never be parsed as markup.
 */

/** Creates an element with attributes and text; never parses HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The element with this id, of the expected kind; a missing one is a broken page, so throw. */
export function byId<T extends HTMLElement>(doc: Document, id: string, kind: abstract new () => T): T {
  const element = doc.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`page is missing #${id} (${kind.name})`);
  return element;
}

/** One entry per non-empty trimmed line, duplicates dropped, order kept. */
export function parseLines(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== ''))];
}

/** A status line that shows either a result or an error (`role="status"` / `role="alert"`). */
export function showStatus(element: HTMLElement, text: string, kind: 'ok' | 'error'): void {
  element.textContent = text;
  element.classList.toggle('error', kind === 'error');
  element.classList.toggle('ok', kind === 'ok');
}

/** The error line to show for a thrown error (the background's sentences are shown as is). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
