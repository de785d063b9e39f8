/**
 * `linkscent export`: a crawl's kept page texts (`crawl --store-text`) as a topical corpus, in
 * fetch order, one record per page whose text was kept (HTML pages read in full):
 *
 *   jsonl   one JSON line per page: {url, title, text, score, relevance, fetchedAt}, with
 *           `finalUrl` when a redirect led elsewhere and `truncated: true` when the title or
 *           text was cut at its cap
 *   warc    a WARC 1.1 file of `conversion` records (text/plain: the title, a blank line, the
 *           text), as Common Crawl's WET files hold extracted text, each with the page's score and
 *           relevance as `LinkScent-*` headers. A crawl that also wrote WARC files (`--warc`) has
 *           each record refer to its page's response record (`WARC-Refers-To`); the responses
 *           themselves stay in `DIR/warc/`. Without them the file holds the text alone, and its
 *           warcinfo record says so.
 */
import { WARCRecord, WARCSerializer } from 'warcio';
import type { CrawlStore } from '../store/crawl-store.ts';
import type { PageWithText } from '../store/page-extras-queries.ts';
import { serializeWarcinfo, SERIALIZER_OPTIONS, WARC_VERSION } from '../warc/warc-records.ts';

export type ExportFormat = 'jsonl' | 'warc';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'warc'];

/** One line of the jsonl export. */
export interface CorpusLine {
  url: string;
  title: string;
  text: string;
  score: number;
  relevance: number | null;
  fetchedAt: string;
  /** Where redirects led, when not to `url`. */
  finalUrl?: string;
  truncated?: true;
}

export function corpusLine({ record, text }: PageWithText): CorpusLine {
  const line: CorpusLine = { url: record.url, title: text.title, text: text.text, score: record.score, relevance: record.relevance ?? null, fetchedAt: record.fetchedAt };
  if (record.finalUrl !== record.url) line.finalUrl = record.finalUrl;
  if (text.truncated) line.truncated = true;
  return line;
}

/** What a warc export holds, for its warcinfo record and the command's last line. */
export function warcExportContents(warcFiles: number): string {
  return warcFiles > 0
    ? `extracted page text as WARC conversion records, each referring to its page's response record in the crawl's ${warcFiles} WARC file(s) (DIR/warc/)`
    : 'extracted page text only, as WARC conversion records: the crawl wrote no WARC files (crawl --warc), so no request or response records exist for its pages';
}

/** The warc export, record by record (each a gzip member), ready to be written in order. */
export async function* warcExport(store: CrawlStore, filename: string, warcFiles: number): AsyncGenerator<Uint8Array> {
  yield await serializeWarcinfo(filename, {
    software: 'LinkScent companion (linkscent export)',
    format: 'WARC File Format 1.1',
    conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    description: warcExportContents(warcFiles),
  });
  const encoder = new TextEncoder();
  for (const page of store.extras.texts()) {
    const { record, text, warc } = page;
    const warcHeaders: [string, string][] = [
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['LinkScent-Score', String(record.score)],
      ...(record.relevance !== undefined ? [['LinkScent-Relevance', String(record.relevance)] as [string, string]] : []),
      ...(warc?.responseId ? [['WARC-Refers-To', warc.responseId] as [string, string]] : []),
    ];
    const body = encoder.encode(`${text.title}\n\n${text.text}`);
    const conversion = WARCRecord.create({ url: record.finalUrl, date: record.fetchedAt, type: 'conversion', warcVersion: WARC_VERSION, warcHeaders }, [body]);
    yield await WARCSerializer.serialize(conversion, SERIALIZER_OPTIONS);
  }
}
