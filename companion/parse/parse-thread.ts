/**
 * The loop of a parse thread: a page's HTML (or bytes) in, its segments, contexts and followable
 * hosts out (`parse-page.ts`), one message each way; the segments go back packed
 * (`packed-page.ts`). A page whose parse throws is answered with the error's name and message,
 * so the crawl records it as it would have recorded the error thrown on its own thread.
 *
 * A crawl's link rules arrive once, under a number (`parse-messages.ts`), and are compiled here
 * by the function the event loop compiles them with (`crawl/link-rules.ts`).
 */
import { parentPort } from 'node:worker_threads';
import { compileLinkRules, type CompiledLinkRules } from '../crawl/link-rules.ts';
import { packPage, transferable } from './packed-page.ts';
import { parsePage } from './parse-page.ts';
import type { PageRequest, ParseReply, ParseRequest } from './parse-messages.ts';

const port = parentPort;
if (!port) throw new Error('parse-thread.ts runs as a worker thread (parse-pool.ts starts it)');

/** Each crawl's compiled rules, or why they did not compile (then each of its pages fails with it). */
const rules = new Map<number, CompiledLinkRules | Error>();

function answer({ id, html, pageUrl, window, links }: PageRequest): void {
  try {
    const compiled = links && rules.get(links.rules);
    if (links && compiled === undefined) throw new Error(`the parse thread has no link rules numbered ${links.rules}`);
    if (compiled instanceof Error) throw compiled;
    const parsed = parsePage({ html, pageUrl, window, ...(links && compiled ? { links: { askedUrl: links.askedUrl, rules: compiled } } : {}) });
    const page = packPage(parsed.page);
    const reply: ParseReply = { id, parsed: { ...parsed, page } };
    port!.postMessage(reply, [transferable(page)]);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    port!.postMessage({ id, error: { name, message } } satisfies ParseReply);
  }
}

port.on('message', (message: ParseRequest) => {
  if ('source' in message) {
    try {
      rules.set(message.rules, compileLinkRules(message.source));
    } catch (error) {
      rules.set(message.rules, error instanceof Error ? error : new Error(String(error)));
    }
  } else if ('forget' in message) {
    rules.delete(message.forget);
  } else {
    answer(message);
  }
});
port.postMessage({ ready: true } satisfies ParseReply);
