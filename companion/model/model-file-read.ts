/**
 * A model file read from disk a piece at a time, hashed as it is read, and turned into text
 * with or without its labeled examples (`shared/model/model-file-skim.ts`).
 *
 * Why in pieces: a file read whole is one malloc'd block as large as the file, and freeing a
 * block past glibc's mmap threshold (128 KiB at start) raises that threshold to the block's size
 * and the arenas' trim threshold to twice it, for the life of the process: every arena then
 * keeps up to that much freed memory resident. Read whole, the frontier bench's 7.9 MB model
 * file did that at the first full collection after a crawl's start (`strace -k`: the file's
 * Buffer unmapped from V8's `ArrayBufferSweeper`), and held the 7.9 MB until then. Pieces of
 * 64 KiB stay under the threshold; a read that leaves the examples out reuses one piece for the
 * whole file, and the examples never become a string.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { ExampleSkimmer, type SkimmedModelFile } from '../../shared/model/model-file-skim.ts';

/** Bytes per read: under glibc's default mmap threshold (128 KiB). */
export const READ_PIECE = 64 * 1024;

export interface ModelFileRead {
  /** SHA-256 of the file's bytes, hex. */
  fingerprint: string;
  /** The text without the examples' rows, when the read left them out and could (`ExampleSkimmer`). */
  skimmed?: SkimmedModelFile;
  /** The whole text (a BOM kept, as `Buffer#toString` keeps it); read again from disk when the read left the examples out. */
  text(): string;
}

/** Reads `path`; with `examples: false` its text is kept without the examples' rows (`skimmed`). */
export async function readModelFile(path: string, options: { examples: boolean }): Promise<ModelFileRead> {
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8'); // a character split between two pieces is joined
  // Without the examples, the text is skimmed as it is read, through one reused piece. With
  // them, the pieces are kept as bytes: a reader with the file decoded already (the service's
  // cache) never asks for the text.
  const skimmer = options.examples ? undefined : new ExampleSkimmer();
  let pieces: Buffer[] = [];
  const handle = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafeSlow(READ_PIECE);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_PIECE, null);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      hash.update(bytes);
      if (skimmer) {
        skimmer.push(decoder.write(bytes));
      } else {
        pieces.push(bytes);
        buffer = Buffer.allocUnsafeSlow(READ_PIECE);
      }
    }
  } finally {
    await handle.close();
  }
  const fingerprint = hash.digest('hex');
  if (skimmer) {
    skimmer.push(decoder.end());
    // Unskimmable (its rows never close: a cut file): the whole text, whose check says what is wrong.
    const skimmed = skimmer.end();
    return { fingerprint, ...(skimmed && { skimmed }), text: () => readFileSync(path, 'utf8') };
  }
  return {
    fingerprint,
    text() {
      const text = pieces.map((piece) => decoder.write(piece)).join('') + decoder.end();
      pieces = [];
      return text;
    },
  };
}
