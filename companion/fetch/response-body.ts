/**
 * Reading a response body under a byte cap, decompressing on the way. undici's `request` hands
 * back the raw bytes, so Content-Encoding is undone here with node:zlib streams, and the cap
 * applies to both sides: the wire (a compressed stream that never yields output) and the
 * decoded bytes (a gzip bomb: 50 KiB that inflate to gigabytes). Compressed input is fed to the
 * decoder in small slices so one network chunk can never inflate to more than a few MiB in
 * memory before the cap is checked.
 */
import { PassThrough, Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/** Content codings we advertise in Accept-Encoding and can undo. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Compressed input is handed to zlib this many bytes at a time (bounds inflation per step). */
const SLICE_BYTES = 4096;

/** Raised inside the pipeline when the wire side passes the cap. */
class WireLimitError extends Error {
  override name = 'WireLimitError';
}

/** Counts wire bytes, refuses past the cap, and slices chunks when a decoder follows. */
class WireCounter extends Transform {
  bytes = 0;
  /** The wire chunks as they came, when asked to keep them (a decoder follows and WARC wants them). */
  readonly kept: Buffer[] | undefined;
  constructor(private readonly maxBytes: number, private readonly slice: boolean, keep: boolean) {
    super();
    this.kept = keep ? [] : undefined;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(new WireLimitError(`more than ${this.maxBytes} bytes on the wire`));
    this.kept?.push(chunk);
    if (!this.slice) return callback(null, chunk);
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) this.push(chunk.subarray(at, at + SLICE_BYTES));
    callback();
  }
}

/**
 * `deflate` as servers really send it: usually zlib-wrapped (RFC 1950), sometimes raw deflate
 * (old IIS). The first two bytes tell which; browsers accept both, so do we.
 */
class InflateAuto extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | undefined;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      const cmf = chunk[0] ?? 0;
      const wrapped = (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (chunk.length < 2 || ((cmf << 8) | chunk[1]!) % 31 === 0);
      const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
      this.inner = wrapped ? zlib.createInflate(options) : zlib.createInflateRaw(options);
      this.inner.on('data', (data: Buffer) => this.push(data));
      this.inner.on('error', (err) => this.destroy(err));
    }
    this.inner.write(chunk, () => callback());
  }
  override _flush(callback: TransformCallback): void {
    if (!this.inner) return callback();
    this.inner.once('end', () => callback());
    this.inner.end();
  }
  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(err);
  }
}

/**
 * One decoder per coding. `finishFlush` is lenient, like browsers: a stream cut short at the
 * end still yields what it decoded instead of failing the page.
 */
function decoderFor(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return new InflateAuto();
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

/** Reads one body in steps (a head to sniff, then the rest), never holding more than the cap. */
export class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private finished = false;
  private readonly iterator: AsyncIterator<Buffer>;

  /** Wire bytes read, when no decoder (and so no `WireCounter`) stands between `raw` and us. */
  private wire = 0;

  /** `counter` undefined: `output` is `raw` itself (no content coding), and the wire cap is checked here. */
  private constructor(
    private readonly raw: Readable,
    private readonly output: Readable,
    private readonly counter: WireCounter | undefined,
    private readonly maxBytes: number,
  ) {
    this.iterator = output[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /**
   * Wraps `raw` (an undici body) for reading; returns the unsupported coding's name instead
   * when Content-Encoding names one we cannot undo. `keepWire`: keep the bytes as they came
   * (`wireBody`), for a WARC record.
   */
  static open(raw: Readable, contentEncoding: string | undefined, maxBytes: number, keepWire = false): BodyReader | { unsupported: string } {
    const codings = (contentEncoding ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    const decoders: Transform[] = [];
    // Codings are listed in the order they were applied, so they are undone last first.
    for (const coding of [...codings].reverse()) {
      const decoder = decoderFor(coding);
      if (!decoder) return { unsupported: coding };
      decoders.push(decoder);
    }
    // Without a decoder the decoded bytes are the wire bytes: the body is read as undici hands
    // it out, with no stage between. Two stream stages per page (a counting Transform and a
    // PassThrough behind a pipeline) were about 4 % of a crawl's event loop on the crawl bench's
    // local web, which sends no content coding.
    if (decoders.length === 0) return new BodyReader(raw, raw, undefined, maxBytes);
    // `wireBody` hands out the decoded bytes when there is no decoder, so a body is held once, not twice.
    const counter = new WireCounter(maxBytes, decoders.length > 0, keepWire && decoders.length > 0);
    const streams = [raw, counter, ...decoders, new PassThrough()] as const;
    // pipeline() destroys every stage when any stage fails or the output is destroyed, which
    // is what frees the socket when we stop reading early.
    const output = (pipeline as (...s: unknown[]) => Readable)(...streams, () => {});
    return new BodyReader(raw, output, counter, maxBytes);
  }

  /** Decoded bytes read so far. */
  get decodedBytes(): number {
    return this.size;
  }

  /** Compressed (wire) bytes read so far. */
  get wireBytes(): number {
    return this.counter ? this.counter.bytes : this.wire;
  }

  /** Everything read so far, as one buffer (joined once and kept, so callers share it). */
  bytes(): Buffer {
    if (this.chunks.length !== 1) {
      const all = Buffer.concat(this.chunks, this.size);
      this.chunks.length = 0;
      this.chunks.push(all);
    }
    return this.chunks[0]!;
  }

  /**
   * The body as it came over the wire: after de-chunking (undici undoes Transfer-Encoding), with
   * its Content-Encoding still applied, which is what a WARC response record holds. Without a
   * content coding it is `bytes()` itself; with one, the kept wire chunks (`open`'s keepWire).
   */
  wireBody(): Buffer[] {
    return this.counter?.kept ?? [this.bytes()];
  }

  /**
   * Reads until at least `n` decoded bytes are held, the body ends, or the cap is passed.
   * Returns `over-limit` when the cap was passed (the body is then cancelled), else whether the
   * body has ended. Network and decoding errors are thrown for the caller to classify.
   */
  async readAtLeast(n: number): Promise<'over-limit' | 'complete' | 'partial'> {
    while (!this.finished && this.size < n) {
      let step: IteratorResult<Buffer>;
      try {
        step = await this.iterator.next();
      } catch (err) {
        if (err instanceof WireLimitError) return this.overLimit();
        throw err;
      }
      if (step.done) {
        this.finished = true;
        break;
      }
      if (!this.counter) {
        // What `WireCounter` does on the way: the chunk that passes the cap is counted on the
        // wire and never held.
        this.wire += step.value.length;
        if (this.wire > this.maxBytes) return this.overLimit();
      }
      this.chunks.push(step.value);
      this.size += step.value.length;
      if (this.size > this.maxBytes) return this.overLimit();
    }
    return this.finished ? 'complete' : 'partial';
  }

  /** Reads to the end of the body or until the cap is passed. */
  async readAll(): Promise<'over-limit' | 'complete'> {
    const end = await this.readAtLeast(Number.POSITIVE_INFINITY);
    return end === 'partial' ? 'complete' : end;
  }

  /** Stops reading and closes the connection under the body (idempotent). */
  cancel(): void {
    this.finished = true;
    this.output.destroy();
    this.raw.destroy();
  }

  private overLimit(): 'over-limit' {
    this.cancel();
    return 'over-limit';
  }
}
