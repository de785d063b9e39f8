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
/** The part of `Document` this needs. */
export interface ReadyDocument {
  readonly readyState: DocumentReadyState;
}

/** How often a loading document is checked, in milliseconds. */
export const PARSED_CHECK_MS = 10;

/**
 * Resolves once `doc` is parsed: at once when it is already, else at the first check after,
 * each check a timer task `PARSED_CHECK_MS` after the last (a read of `readyState`, nothing
 * more, while the page loads).
 *
 * Not from a `DOMContentLoaded` listener: on a page with nothing left to load, the task that
 * fires DOMContentLoaded goes on to fire `load` and lay the whole page out (150–250 ms on the
 * bench's 1,000-link page), and a listener of ours in it, however short, makes that task count
 * as ours (bench/extension/main-thread-trace.ts attributes whole tasks). Not from idle
 * callbacks either: on the 5,000-link page the first idle period came 100–180 ms after
 * DOMContentLoaded, later than Chromium would have injected a document_idle script.
 */
export function documentParsed(doc: ReadyDocument, later: (callback: () => void, ms: number) => void = (callback, ms) => void setTimeout(callback, ms)): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => {
    const check = (): void => {
      if (doc.readyState !== 'loading') resolve();
      else later(check, PARSED_CHECK_MS);
    };
    later(check, PARSED_CHECK_MS);
  });
}
