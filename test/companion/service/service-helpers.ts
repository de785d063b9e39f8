/**
 * Helpers for the service tests: a temporary home, raw HTTP on loopback (node:http, so that
 * Host and Origin are exactly what the test says; fetch() would set Host itself), a server-sent
 * event reader, and a model file trained on the loopback site whose topic (finance) carries
 * on-topic URL patterns, as a model made in the extension does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { extractContexts } from '../../../shared/contexts/extract-contexts.ts';
import { linkFeatures } from '../../../shared/features/link-features.ts';
import type { FeatureOptions } from '../../../shared/features/types.ts';
import { exampleRows } from '../../../shared/model/example-key.ts';
import { encodeModelFile } from '../../../shared/model/model-file.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';
import { sseFrames } from '../../../tools/sse-frames.ts';
import { SITE_TOPICS, type SiteServer } from '../support/site-server.ts';

export function tempHome(prefix = 'linkscent-service-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export { freePort } from '../../../bench/support/listen-loopback.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = any>(): T;
}

export interface CallOptions {
  method?: string;
  body?: string | object;
  token?: string | null;
  host?: string;
  origin?: string;
  headers?: Record<string, string>;
}

/** One request to the service at `port`; `token: null` sends no Authorization header. */
export function call(port: number, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${port}`, ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.origin) headers.origin = options.origin;
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Reads a crawl's event stream until `end` (or the stream closes); every event in order. */
export function readEvents(port: number, token: string, id: string, timeoutMs = 60_000): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const req = httpRequest(
      { host: '127.0.0.1', port, path: `/api/crawls/${id}/events`, headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events: HTTP ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on(
          'data',
          sseFrames((event, data) => {
            if (data !== undefined) events.push({ event, data: JSON.parse(data) });
          }),
        );
        res.on('end', () => {
          clearTimeout(timer);
          resolve(events);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no end event in ${timeoutMs} ms; got ${events.length} events`));
    }, timeoutMs);
    req.on('error', reject);
    req.end();
  });
}

/** Polls GET /api/crawls/:id until `done(info)`; returns that info. */
export async function waitForCrawl(port: number, token: string, id: string, done: (info: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call(port, `/api/crawls/${id}`, { token }).catch(() => undefined);
    if (reply?.status === 200 && done(reply.json())) return reply.json();
    if (Date.now() > deadline) throw new Error(`crawl ${id}: condition not met in ${timeoutMs} ms (last: ${reply?.text})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ModelFileOptions {
  /** On-topic URL patterns of the topic (default: the site's /finance/ section). */
  positive?: string[];
  negative?: string[];
  name?: string;
}

/**
 * Writes a model file for the finance topic: seed 000's labels (a link into /finance/ is
 * positive) over the section pages and the last articles of each topic, group-2 features.
 */
export async function writeFinanceModel(path: string, site: SiteServer, options: ModelFileOptions = {}): Promise<Topic> {
  const tokenizer = loadNodeTokenizer();
  const features: FeatureOptions = { group: 2, lexicon: [], urlTokens: false };
  const model = new NaiveBayes({ form: 'bernoulli' });
  const name = options.name ?? '财经';
  const topic: Topic & { urlTokens: boolean } = {
    id: `topic-${name === '财经' ? 'finance' : 'other'}`,
    name,
    lexicon: [],
    positive: options.positive ?? [`${site.origin}/finance/*`],
    negative: options.negative ?? [],
    threshold: 0.5,
    featureGroup: 2,
    form: 'bernoulli',
    window: 80,
    urlTokens: false,
  };
  const examples: LabeledLink[] = [];
  const n = site.perTopic;
  const paths = SITE_TOPICS.flatMap((t) => [`/${t}/`, ...Array.from({ length: 4 }, (_, i) => `/${t}/${n - 1 - i}.html`)]);
  for (const path of paths) {
    const page = segmentsFromHtml(site.html(path)!, `${site.origin}${path}`);
    for (const context of extractContexts(page, { window: 80 })) {
      const label = new URL(context.url).pathname.startsWith('/finance/') ? 1 : 0;
      model.add(linkFeatures(context, tokenizer, features), label);
      const { url, pageUrl, anchor, before, after } = context;
      examples.push({ url, pageUrl, anchor, before, after, label, source: 'pattern', topic: topic.id });
    }
  }
  const { header, features: featureRows } = model.toRows(topic.id);
  const rows = exampleRows(examples, Date.now()).map((row, i) => ({ ...row, id: i + 1 }));
  writeFileSync(path, encodeModelFile({ topics: [topic], models: [header], features: featureRows, examples: rows }));
  return topic;
}

/** The lines of a pages.jsonl text. */
export function parseJsonl<T = any>(text: string): T[] {
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as T);
}
