/**
 * The loop of a parse thread: a page's HTML in, its segments and contexts out (`parse-page.ts`),
 * one message each way. A page whose parse throws is answered with the error's name and message,
 * so the crawl records it as it would have recorded the error thrown on its own thread.
 */
import { parentPort } from 'node:worker_threads';
import { parsePage } from './parse-page.ts';
import type { ParseReply, ParseRequest } from './parse-messages.ts';

const port = parentPort;
if (!port) throw new Error('parse-thread.ts runs as a worker thread (parse-pool.ts starts it)');

port.on('message', ({ id, html, pageUrl, window }: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id, parsed: parsePage(html, pageUrl, window) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    reply = { id, error: { name, message } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies ParseReply);
