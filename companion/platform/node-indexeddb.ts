/**
 * The companion's side of the one Dexie schema: `LinkScentDb` over fake-indexeddb, in memory,
 * and model files read from and written to disk. The extension opens the same schema on the
 * browser's IndexedDB; both write dexie-export-import files, so each reads the other's.
 *
 * Each open gets its own fake-indexeddb `IDBFactory`, so two files opened in one process (a
 * crawl's model and a training run's output, or two tests) never share a database.
 *
 * Node lacks two globals dexie-export-import expects, so this module defines them when it is
 * evaluated, before `shared/model/model-file.ts` first loads that library:
 *   - `self`: read when the library is evaluated and on each import (`'FileReaderSync' in self`);
 *   - `FileReader`: its Blob reader (`readBlobAsync`) for a file given as a Blob. LinkScent's own
 *     import hands it the parsed file instead, but `db.import(blob)` or `peakImportFile(blob)`
 *     called directly need it.
 */
import { readFile } from 'node:fs/promises';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { LINKSCENT_DB_NAME, LinkScentDb } from '../../shared/model/db-schema.ts';
import { exportModelFile, importModelFile } from '../../shared/model/model-file.ts';
import { writeFileAtomic } from './atomic-file.ts';

/** Defines `self` and `FileReader` where the platform has none (idempotent; never replaces). */
export function installNodeGlobals(): void {
  const global = globalThis as { self?: unknown; FileReader?: unknown };
  global.self ??= globalThis;
  global.FileReader ??= NodeFileReader;
}

/** An open database over its own in-memory fake-indexeddb. */
export async function openNodeDb(name: string = LINKSCENT_DB_NAME): Promise<LinkScentDb> {
  const db = new LinkScentDb(name, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  return db;
}

/**
 * A model file opened for reading: the database itself (it has `close()`), also reachable as
 * `db` with a bound `close`, so both `file.topics` and `const { db, close } = file` work.
 */
export type OpenModelFile = LinkScentDb & { readonly db: LinkScentDb; readonly close: () => void };

/**
 * Opens the model file at `path` in a fresh in-memory database holding exactly its contents.
 * Throws the file system's error for an unreadable file and a one-line `ModelFileError` for a
 * file that is not a valid model file.
 */
export async function readModelFile(path: string): Promise<OpenModelFile> {
  return openModelFileText(await readFile(path, 'utf8'));
}

/** `readModelFile` for a file already read (its text); a bad file is a one-line `ModelFileError`. */
export async function openModelFileText(text: string): Promise<OpenModelFile> {
  const db = await openNodeDb();
  try {
    await importModelFile(db, new Blob([text], { type: 'application/json' }), { replace: true });
  } catch (error) {
    db.close();
    throw error;
  }
  return Object.defineProperties(db, {
    db: { value: db, enumerable: false },
    close: { value: () => LinkScentDb.prototype.close.call(db), enumerable: false },
  }) as OpenModelFile;
}

/**
 * Writes the whole database to `path` as a model file. Written beside it and renamed into place,
 * so a crash mid-write never leaves a half file where a good model was.
 */
export async function writeModelFile(path: string, db: LinkScentDb): Promise<void> {
  writeFileAtomic(path, await (await exportModelFile(db)).text());
}

type ReaderEventName = 'loadstart' | 'load' | 'error' | 'abort' | 'loadend';
type ReaderHandler = ((this: NodeFileReader, event: Event) => unknown) | null;

/**
 * FileReader for Node, after the File API spec (w3c.github.io/FileAPI/#APIASynch), over
 * `Blob.arrayBuffer()`: `readAsArrayBuffer`, `readAsText` and `readAsBinaryString` (what
 * dexie-export-import and its typeson Blob reviver call), `abort`, `readyState`, `result`,
 * `error`, and the events loadstart → load | error | abort → loadend, both as `on…` handlers and
 * through `addEventListener`. Events are dispatched with the reader as `event.target`.
 */
export class NodeFileReader extends EventTarget {
  static readonly EMPTY = 0;
  static readonly LOADING = 1;
  static readonly DONE = 2;
  readonly EMPTY = 0;
  readonly LOADING = 1;
  readonly DONE = 2;
  readyState: 0 | 1 | 2 = 0;
  result: string | ArrayBuffer | null = null;
  error: Error | null = null;
  onloadstart: ReaderHandler = null;
  onload: ReaderHandler = null;
  onerror: ReaderHandler = null;
  onabort: ReaderHandler = null;
  onloadend: ReaderHandler = null;
  /** Bumped by each read and by abort, so a superseded read's outcome is dropped. */
  #generation = 0;

  constructor() {
    super();
    // An `on…` handler is a listener registered first, as event handler attributes are.
    for (const type of ['loadstart', 'load', 'error', 'abort', 'loadend'] as const) {
      this.addEventListener(type, (event) => {
        const handler = this[`on${type}`];
        if (typeof handler === 'function') handler.call(this, event);
      });
    }
  }

  readAsArrayBuffer(blob: Blob): void {
    this.#read(blob, (bytes) => bytes);
  }

  readAsText(blob: Blob, encoding = 'utf-8'): void {
    this.#read(blob, (bytes) => new TextDecoder(encoding).decode(bytes));
  }

  /** Each byte as one code unit (U+0000–U+00FF), as the spec's legacy method does. */
  readAsBinaryString(blob: Blob): void {
    this.#read(blob, (bytes) => {
      const view = new Uint8Array(bytes);
      let text = '';
      for (let start = 0; start < view.length; start += 0x8000) text += String.fromCharCode(...view.subarray(start, start + 0x8000));
      return text;
    });
  }

  abort(): void {
    if (this.readyState !== NodeFileReader.LOADING) return;
    this.#generation++;
    this.readyState = NodeFileReader.DONE;
    this.result = null;
    this.#fire('abort');
    this.#fire('loadend');
  }

  #read(blob: Blob, convert: (bytes: ArrayBuffer) => string | ArrayBuffer): void {
    if (this.readyState === NodeFileReader.LOADING) throw new DOMException('a read is already in progress', 'InvalidStateError');
    const generation = ++this.#generation;
    this.readyState = NodeFileReader.LOADING;
    this.result = null;
    this.error = null;
    // The spec starts the read and returns; every event comes on a later task.
    queueMicrotask(() => {
      if (generation === this.#generation) this.#fire('loadstart');
    });
    blob.arrayBuffer().then(
      (bytes) => {
        if (generation !== this.#generation) return;
        let result: string | ArrayBuffer;
        try {
          result = convert(bytes);
        } catch (error) {
          this.#fail(error);
          return;
        }
        this.readyState = NodeFileReader.DONE;
        this.result = result;
        this.#fire('load');
        this.#fire('loadend');
      },
      (error: unknown) => {
        if (generation === this.#generation) this.#fail(error);
      },
    );
  }

  #fail(error: unknown): void {
    this.readyState = NodeFileReader.DONE;
    this.error = error instanceof Error ? error : new Error(String(error));
    this.#fire('error');
    this.#fire('loadend');
  }

  #fire(type: ReaderEventName): void {
    this.dispatchEvent(new Event(type));
  }
}

// Last: the class above must be defined before it is installed.
installNodeGlobals();
