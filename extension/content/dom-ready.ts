/**
 * Waiting for the parsed document. index.ts runs at document_start (before the page is parsed),
 * so the session asks for its settings while the page downloads and parses, and starts on the
 * DOM as soon as it is complete.
 *
 * Why not document_idle: Chromium runs document_idle (and, in practice, document_end) scripts
 * after the page's first layout, and then they still have to ask for their settings: on the
 * bench's 1,000-link page that put about 25 ms of injection and a settings round trip between
 * the end of that layout and the first link sent (bench/extension-bench.ts).
 */
import type { RequestIdle } from './idle.ts';

/** The part of `Document` this needs. */
export interface ReadyDocument {
  readonly readyState: DocumentReadyState;
}

/**
 * Resolves once `doc` is parsed: at once when it is already, else in the first idle period
 * after. Not from a `DOMContentLoaded` listener: on a page with nothing left to load, the task
 * that fires DOMContentLoaded goes on to fire `load` and lay the whole page out (150–250 ms on
 * that page), and a listener of ours in it, however short, would make that task count as ours
 * (bench/extension/main-thread-trace.ts attributes whole tasks). An idle callback runs after
 * it, in a task of its own, which is when the page's first links can go anyway; and while the
 * page is still loading, a check costs nothing but idle time.
 */
export function documentParsed(doc: ReadyDocument, requestIdle: RequestIdle): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => {
    const check = (): void => {
      if (doc.readyState !== 'loading') resolve();
      else requestIdle(check);
    };
    requestIdle(check);
  });
}
