/**
 * Test support: a whole page parsed by happy-dom in its own window, as a browser would have
 * built it before the content script runs. Its own window (not the test environment's) keeps
 * happy-dom's notices about disabled iframe and stylesheet loading out of the test output.
 */
import type { Window } from 'happy-dom';
import { afterAll } from 'vitest';
import { parsingWindow } from '../../support/happy-dom-window.ts';

const windows: Window[] = [];

afterAll(async () => {
  await Promise.all(windows.splice(0).map((window) => window.happyDOM.close()));
});

export function pageDocument(html: string, url: string): Document {
  const window = parsingWindow(url);
  windows.push(window);
  window.document.write(html);
  return window.document as unknown as Document;
}
