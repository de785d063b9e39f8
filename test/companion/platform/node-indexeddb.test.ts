import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeFileReader, openNodeDb, readModelFile, writeModelFile } from '../../../companion/platform/node-indexeddb.ts';
import { ModelFileError } from '../../../shared/model/model-file.ts';
import { addExamples, loadModel, saveModel } from '../../../shared/model/model-store.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { Topic } from '../../../shared/model/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkscent-idb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOPIC: Topic = {
  id: 'finance',
  name: '财经',
  lexicon: [],
  positive: [],
  negative: [],
  threshold: 0.5,
  featureGroup: 1,
  form: 'bernoulli',
  window: 80,
};
const vec = (...features: string[]) => new Map(features.map((f) => [f, 1]));

describe('openNodeDb', () => {
  it('gives every open its own in-memory IndexedDB, even under the same name', async () => {
    const a = await openNodeDb();
    const b = await openNodeDb();
    await a.settings.put({ key: 'k', value: 1 });
    expect(await a.settings.count()).toBe(1);
    expect(await b.settings.count()).toBe(0);
    a.close();
    b.close();
  });
});

describe('model files on disk', () => {
  it('writeModelFile → readModelFile gives the same model and examples', async () => {
    const db = await openNodeDb();
    const model = new NaiveBayes({ form: 'bernoulli' }).fit([vec('a:股票', 'a:行情'), vec('a:足球')], [1, 0]);
    await saveModel(db, TOPIC, model);
    await addExamples(db, [{ url: 'u', pageUrl: 'p', anchor: '股票行情', before: '', after: '', label: 1, source: 'pattern', topic: TOPIC.id }]);
    const path = join(dir, 'model.json');
    await writeModelFile(path, db);
    db.close();
    expect(JSON.parse(readFileSync(path, 'utf8')).formatName).toBe('dexie');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const file = await readModelFile(path);
    expect(await file.topics.toArray()).toEqual([TOPIC]); // the database itself…
    const { db: opened, close } = file; // …or destructured
    expect(await opened.examples.count()).toBe(1);
    const loaded = (await loadModel(opened, TOPIC.id))!;
    expect(loaded.score(vec('a:股票'))).toEqual(model.score(vec('a:股票')));
    close();
    expect(opened.isOpen()).toBe(false);
  });

  it('a bad file is a one-line ModelFileError; a missing one is the file system error', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"formatName": "dexie", "formatVersion": 1, "data": {"databaseName": "linkscent", "databaseVersion": 1, "tables": [{"name": "foo"');
    const error = await readModelFile(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFileError);
    expect((error as Error).message).toMatch(/^corrupt model file: invalid JSON at position \d+ \(line 1, column \d+\): the text ends early/);
    await expect(readModelFile(join(dir, 'missing.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writing into a folder that does not exist fails with ENOENT and leaves nothing behind', async () => {
    const db = await openNodeDb();
    await expect(writeModelFile(join(dir, 'no', 'such', 'model.json'), db)).rejects.toMatchObject({ code: 'ENOENT' });
    db.close();
  });
});

describe('dexie-export-import on Node, through the shims', () => {
  it('defines self and FileReader', () => {
    expect((globalThis as { self?: unknown }).self).toBe(globalThis);
    expect(typeof (globalThis as { FileReader?: unknown }).FileReader).toBe('function');
  });

  it("reads a Blob with the library's own reader: peakImportFile and importInto(db, blob)", async () => {
    const { importInto, peakImportFile } = await import('dexie-export-import');
    const source = await openNodeDb();
    await source.settings.put({ key: '语言', value: '中文' });
    const { exportModelFile } = await import('../../../shared/model/model-file.ts');
    const file = await exportModelFile(source);
    const meta = await peakImportFile(file);
    expect(meta.data.tables.find((t) => t.name === 'settings')?.rowCount).toBe(1);
    const target = await openNodeDb();
    await importInto(target, file, { chunkSizeBytes: 64 }); // small chunks: many FileReader reads, split UTF-8
    expect(await target.settings.get('语言')).toEqual({ key: '语言', value: '中文' });
    source.close();
    target.close();
  });
});

describe('NodeFileReader', () => {
  const read = (reader: NodeFileReader) =>
    new Promise<string[]>((resolve) => {
      const events: string[] = [];
      for (const type of ['loadstart', 'load', 'error', 'abort', 'loadend']) {
        reader.addEventListener(type, (event) => {
          expect(event.target).toBe(reader);
          events.push(type);
          if (type === 'loadend') resolve(events);
        });
      }
    });

  it('readAsText decodes UTF-8 and fires loadstart, load, loadend', async () => {
    const reader = new NodeFileReader();
    let onload: unknown;
    reader.onload = function (event) {
      onload = [this.result, event.type];
    };
    const done = read(reader);
    reader.readAsText(new Blob(['股票 ok']));
    expect(reader.readyState).toBe(NodeFileReader.LOADING);
    expect(await done).toEqual(['loadstart', 'load', 'loadend']);
    expect(reader.readyState).toBe(NodeFileReader.DONE);
    expect(onload).toEqual(['股票 ok', 'load']);
  });

  it('readAsArrayBuffer and readAsBinaryString give the bytes', async () => {
    const reader = new NodeFileReader();
    const done = read(reader);
    reader.readAsArrayBuffer(new Blob([new Uint8Array([0, 255, 7])]));
    await done;
    expect([...new Uint8Array(reader.result as ArrayBuffer)]).toEqual([0, 255, 7]);
    const binary = new NodeFileReader();
    const doneBinary = read(binary);
    binary.readAsBinaryString(new Blob(['é']));
    await doneBinary;
    expect(binary.result).toBe('\u00c3\u00a9');
  });

  it('reports a failed read through onerror with reader.error', async () => {
    class BrokenBlob extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return Promise.reject(new Error('the file went away'));
      }
    }
    const reader = new NodeFileReader();
    const failed = new Promise<Error | null>((resolve) => {
      reader.onerror = (event) => resolve((event.target as NodeFileReader).error);
    });
    const done = read(reader);
    reader.readAsArrayBuffer(new BrokenBlob(['x']));
    expect((await failed)?.message).toBe('the file went away');
    expect(await done).toEqual(['loadstart', 'error', 'loadend']);
    expect(reader.result).toBeNull();
  });

  it('abort drops the result; a second read while loading is an InvalidStateError', async () => {
    const reader = new NodeFileReader();
    const done = read(reader);
    reader.readAsText(new Blob(['x']));
    expect(() => reader.readAsText(new Blob(['y']))).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    reader.abort();
    expect(await done).toEqual(['abort', 'loadend']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reader.result).toBeNull();
  });
});
