/**
 * `linkscent export DIR --format jsonl|warc [--out FILE]`: the page texts a crawl kept (`crawl
 * --store-text`) as a corpus (`export/corpus-export.ts` says what each format holds). The file is
 * written beside its target and renamed over it when complete, so a stopped export leaves no
 * half file; jsonl without --out goes to stdout.
 */
import { closeSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { openCrawlStore } from './open-crawl.ts';

export async function run(args: Args, io: CliIo): Promise<void> {
  const [dir] = args.positionals as [string];
  const [{ corpusLine, EXPORT_FORMATS, warcExport, warcExportContents }, { warcFiles }] = await Promise.all([
    import('../../export/corpus-export.ts'),
    import('../../warc/warc-writer.ts'),
  ]);
  const format = args.choice('format', EXPORT_FORMATS);
  const out = args.string('out');
  if (format === 'warc' && out === undefined) throw new UsageError('--format warc needs --out FILE (a WARC file is not for a terminal)');
  if (out !== undefined) checkTarget(out);

  const store = openCrawlStore(dir);
  try {
    if (!store.extras.hasTexts()) {
      throw new CliFailure(`${dir} kept no page text: crawl with --store-text (a --resume with --store-text keeps the text of the pages fetched from then on)`);
    }
    const sink = out === undefined ? stdoutSink() : fileSink(out);
    let pages = 0;
    try {
      if (format === 'jsonl') {
        for (const page of store.extras.texts()) {
          await sink.write(`${JSON.stringify(corpusLine(page))}\n`);
          pages++;
        }
      } else {
        const files = warcFiles(dir).length;
        for await (const record of warcExport(store, basename(out!), files)) {
          await sink.write(record);
          pages++;
        }
        pages--; // the warcinfo record
        io.warn(`export: the WARC file holds ${warcExportContents(files)}`);
      }
      sink.done();
    } catch (error) {
      sink.abandon();
      throw error;
    }
    io.warn(`export: ${pages} pages → ${out ?? 'stdout'}`);
  } finally {
    store.close();
  }
}

interface Sink {
  write(data: string | Uint8Array): void | Promise<void>;
  done(): void;
  abandon(): void;
}

/** Refuses an --out that exists and is not a regular file (a device, a directory). */
function checkTarget(path: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (!stat.isFile()) throw new UsageError(`--out ${path} exists and is not a regular file; give a file path`);
}

function fileSink(path: string): Sink {
  const temporary = `${path}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temporary, 'w');
  } catch (error) {
    throw new CliFailure(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  return {
    write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    },
    done() {
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temporary, path);
    },
    abandon() {
      closeSync(fd);
      rmSync(temporary, { force: true });
    },
  };
}

/** stdout, waiting for it to drain (a pipe to a slow reader must not fill memory). */
function stdoutSink(): Sink {
  return {
    async write(data) {
      if (!process.stdout.write(data)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    },
    done() {},
    abandon() {},
  };
}
