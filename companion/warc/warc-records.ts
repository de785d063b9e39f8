/**
 * A fetched page as WARC 1.1 records, through webrecorder's warcio (the library behind pywb's and
 * ArchiveWeb.page's WARCs), each record its own gzip member:
 *
 *   request    the GET as undici sent it (`fetch/http-exchange.ts` `sentRequest`)
 *   response   the status line and headers as received, then the body as received after
 *              de-chunking, its Content-Encoding kept (what warcio and pywb expect to read back)
 *   metadata   the crawl's view of the page as WARC fields: outcome, status, score, relevance,
 *              rank, depth, parent; the same figures as `LinkScent-*` WARC headers, as ACHE puts
 *              its `ACHE-Relevance` on its records
 *
 * A page not read in full (an HTTP error, not HTML, too large, unreachable) has no exchange to
 * keep: it gets the metadata record alone, so the WARC is the log of every request the crawl
 * made. A URL robots.txt forbade was never requested and gets no record.
 *
 * Byte fidelity. Headers keep their case, order and repeats (`OrderedHeaders`). A de-chunked body
 * can no longer carry `Transfer-Encoding: chunked`, or a reader would de-chunk it again: the header
 * is kept as `X-Crawler-Transfer-Encoding` (Common Crawl's convention). warcio writes headers as
 * UTF-8; a header value whose bytes are valid UTF-8 is therefore written byte for byte, any other
 * (rare: raw latin1 bytes) as the UTF-8 of its latin1 reading.
 *
 * Digests: SHA-256, `sha256:` + hex (warcio's default; warcio and pywb verify it), over the block
 * and, for the response, the payload (the body as stored).
 */
import { HeadersMultiMap, StatusAndHeaders, WARCRecord, WARCSerializer, type WARCSerializerOpts } from 'warcio';
import type { RawExchange } from '../fetch/types.ts';
import type { PageRecord } from '../store/records.ts';

export const WARC_VERSION = 'WARC/1.1';
export const SERIALIZER_OPTIONS: WARCSerializerOpts = { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: false } };

/** A page's records, serialized: gzip members back to back, and the response record's id. */
export interface SerializedPage {
  chunks: Uint8Array[];
  length: number;
  responseId?: string;
}

/**
 * Headers iterated exactly as given (warcio's map would group repeats of one name together, and
 * refuses a repeated `WARC-*` name, which a server may well send in its HTTP headers).
 */
class OrderedHeaders extends HeadersMultiMap {
  readonly #pairs: [string, string][];
  constructor(pairs: [string, string][]) {
    super();
    this.#pairs = pairs;
    for (const [name, value] of pairs) if (!this.has(name)) this.set(name, value);
  }
  override *[Symbol.iterator](): IterableIterator<[string, string]> {
    yield* this.#pairs;
  }
}

/** A latin1-read header value as the string whose UTF-8 is the bytes received, when there is one. */
function asReceived(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : value;
}

function responseHeaders(raw: RawExchange): [string, string][] {
  return raw.response.headers.map(([name, value]) => [
    name.toLowerCase() === 'transfer-encoding' ? `X-Crawler-${name}` : name,
    asReceived(value),
  ]);
}

function withHttp(record: WARCRecord, statusline: string, headers: [string, string][]): WARCRecord {
  record.httpHeaders = new StatusAndHeaders({ statusline, headers: new OrderedHeaders(headers) });
  return record;
}

/** The crawl's figures for a page, as `name: value` WARC fields (absent ones left out). */
export function pageFields(record: PageRecord): [string, string][] {
  const fields: [string, string | number | null | undefined][] = [
    ['outcome', record.outcome],
    ['status', record.status],
    ['score', record.score],
    ['relevance', record.relevance],
    ['rank', record.rank],
    ['log-odds', record.logOdds],
    ['depth', record.depth],
    ['parent', record.parent],
    ['via', record.finalUrl !== record.url ? record.url : undefined],
    ['error', record.error],
  ];
  return fields.filter((field): field is [string, string | number] => field[1] !== undefined && field[1] !== null).map(([name, value]) => [name, String(value).replace(/[\r\n]+/g, ' ')]);
}

const encoder = new TextEncoder();

/** A page's records, serialized. `raw` absent: the metadata record alone. */
export async function serializePage(record: PageRecord, raw: RawExchange | undefined): Promise<SerializedPage> {
  const records: WARCRecord[] = [];
  let responseId: string | undefined;
  const date = raw?.sentAt ?? record.fetchedAt;
  const target = raw ? record.finalUrl : record.url;
  if (raw) {
    const request = withHttp(
      WARCRecord.create({ url: target, date, type: 'request', warcVersion: WARC_VERSION }),
      `${raw.request.method} ${raw.request.target} HTTP/1.1`,
      raw.request.headers,
    );
    const response = withHttp(
      WARCRecord.create({ url: target, date, type: 'response', warcVersion: WARC_VERSION }, raw.body),
      `HTTP/1.1 ${raw.response.status}${raw.response.statusText ? ` ${raw.response.statusText}` : ''}`,
      responseHeaders(raw),
    );
    responseId = response.warcHeaders.headers.get('WARC-Record-ID') ?? undefined;
    request.warcHeaders.headers.set('WARC-Concurrent-To', responseId!);
    records.push(request, response);
  }
  const fields = pageFields(record);
  const warcHeaders: [string, string][] = [
    ['LinkScent-Outcome', record.outcome],
    ['LinkScent-Score', String(record.score)],
    ...(record.relevance !== undefined ? [['LinkScent-Relevance', String(record.relevance)] as [string, string]] : []),
    ...(responseId ? [['WARC-Concurrent-To', responseId] as [string, string]] : []),
  ];
  const block = fields.map(([name, value]) => encoder.encode(`${name}: ${value}\r\n`));
  records.push(WARCRecord.create({ url: target, date, type: 'metadata', warcVersion: WARC_VERSION, warcHeaders }, block));

  const chunks: Uint8Array[] = [];
  for (const one of records) chunks.push(await WARCSerializer.serialize(one, SERIALIZER_OPTIONS));
  return { chunks, length: chunks.reduce((sum, chunk) => sum + chunk.length, 0), ...(responseId ? { responseId } : {}) };
}

/** A `warcinfo` record for the start of a file, serialized. */
export async function serializeWarcinfo(filename: string, info: Record<string, string>): Promise<Uint8Array> {
  const record = WARCRecord.createWARCInfo({ filename, warcVersion: WARC_VERSION }, info);
  return WARCSerializer.serialize(record, SERIALIZER_OPTIONS);
}
