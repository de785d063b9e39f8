/**
 * The model-file codec on its own (no Dexie): round trips both ways, byte for byte; files of
 * format version 1 read (two written by the Dexie-based code before the codec, in fixtures/); a
 * newer version is refused in one line; every malformed file is one line naming what is wrong.
 * Byte equality with dexie-export-import itself is checked in
 * test/extension/storage/model-file-io.test.ts, on the extension's Dexie.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleRows } from '../../../shared/model/example-key.ts';
import { decodeModelFile, emptyModelFile, encodeModelFile, linkModelOf, ModelFileError, type ModelFileContent } from '../../../shared/model/model-file.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import { bagOf, FINANCE_LINKS, FINANCE_TOPIC } from './finance-sports.fixture.ts';

const TOPIC = FINANCE_TOPIC;
const EXAMPLES = FINANCE_LINKS;

const model = new NaiveBayes({ form: 'bernoulli' }).fit(EXAMPLES.map((e) => ({ features: bagOf(e.anchor.replace(/(..)/g, '$1 ')), label: e.label })));

/** One of everything, each table's rows in primary-key order (as a database holds them). */
function content(): ModelFileContent {
  const { header, features } = model.toRows(TOPIC.id);
  return {
    ...emptyModelFile(),
    topics: [TOPIC],
    examples: exampleRows(EXAMPLES, 1_700_000_000_000).map((row, i) => ({ ...row, id: i + 1 })),
    models: [{ ...header, savedAt: 1_700_000_000_001 }],
    features,
    pages: [{ topic: TOPIC.id, url: 'https://finance.example.com/1', title: '股票', label: 1, seenAt: 1_700_000_000_002 }],
    settings: [
      { key: 'excludedSites', value: ['bank.example.com'] },
      { key: 'maxLinksPerPage', value: 500 },
    ],
    levelModels: [{ topic: TOPIC.id, rowsVersion: 1, levels: 3, alpha: 1, count: [2, 1, 1], tokens: [3, 1, 2], vocabularySize: 2, savedAt: 1_700_000_000_003 }],
    levelFeatures: [
      { topic: TOPIC.id, feature: 'a:利率', occurrences: [1, 1, 0] },
      { topic: TOPIC.id, feature: 'a:股票', occurrences: [2, 0, 2] },
    ],
  };
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** The message of the ModelFileError that decoding `text` throws. */
function refusal(text: string): string {
  try {
    decodeModelFile(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelFileError);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error('decoded a bad file');
}

describe('round trips', () => {
  it('decode(encode(x)) is x, and encode(decode(text)) is the same text', () => {
    const text = encodeModelFile(content());
    expect(decodeModelFile(text)).toStrictEqual(content());
    expect(encodeModelFile(decodeModelFile(text))).toBe(text);
  });

  it('writes the Dexie export header, every table with its schema and count, no white space', () => {
    const file = JSON.parse(encodeModelFile(content()));
    expect(Object.keys(file)).toEqual(['formatName', 'formatVersion', 'data']);
    expect(file).toMatchObject({ formatName: 'dexie', formatVersion: 1, data: { databaseName: 'linkscent', databaseVersion: 3 } });
    expect(file.data.tables).toEqual([
      { name: 'topics', schema: 'id,name', rowCount: 1 },
      { name: 'examples', schema: '++id,&[topic+key],topic,label,source,url,pageUrl', rowCount: 40 },
      { name: 'models', schema: 'topic', rowCount: 1 },
      { name: 'features', schema: '[topic+feature],topic', rowCount: content().features.length },
      { name: 'pages', schema: '[topic+url],topic', rowCount: 1 },
      { name: 'settings', schema: 'key', rowCount: 2 },
      { name: 'levelModels', schema: 'topic', rowCount: 1 },
      { name: 'levelFeatures', schema: '[topic+feature],topic', rowCount: 2 },
    ]);
    expect(encodeModelFile(content())).not.toMatch(/\s(?=(?:[^"]*"[^"]*")*[^"]*$)/); // no space outside strings
  });

  it('rows given in any order are written in primary-key order: the same bytes', () => {
    const shuffled = content();
    shuffled.examples.reverse();
    shuffled.features.reverse();
    shuffled.settings.reverse();
    expect(encodeModelFile(shuffled)).toBe(encodeModelFile(content()));
  });

  it('values JSON lacks travel as Dexie marks them, and come back as they were', () => {
    const shared = ['x'];
    const odd = {
      ...emptyModelFile(),
      pages: [{ topic: 't', url: 'u', title: '', label: undefined, seenAt: 1 }],
      settings: [{ key: 'k', value: { list: [1, null], none: undefined, nan: NaN, big: -Infinity, when: new Date(5), again: shared, same: shared, 'a.b': Infinity } }],
    };
    const text = encodeModelFile(odd);
    expect(text).toContain(
      '"rows":[{"key":"k","value":{"list":[1,null],"none":0,"nan":"NaN","big":"-Infinity","when":5,"again":["x"],"same":"#value.again","a.b":"Infinity"},' +
        '"$types":{"value.list":"arrayNonindexKeys","value.none":"undef","value.nan":"nan","value.big":"negativeInfinity","value.when":"date","value.again":"arrayNonindexKeys","value.same":"#","value.a~1b":"infinity"}}]',
    );
    const back = decodeModelFile(text);
    expect(back).toStrictEqual(odd);
    const value = back.settings[0]!.value as Record<string, unknown>;
    expect(value.same).toBe(value.again); // one object twice, as IndexedDB keeps it
    expect(encodeModelFile(back)).toBe(text);
  });

  it('gives a topic its link model (scores as the one written), or undefined without one', () => {
    const file = decodeModelFile(encodeModelFile(content()));
    const probe = bagOf('股票 行情');
    expect(linkModelOf(file, TOPIC.id)!.score(probe)).toEqual(model.score(probe));
    expect(linkModelOf(file, 'other')).toBeUndefined();
  });
});

describe('format versions', () => {
  it('reads a version-1 file that `linkscent train` wrote through Dexie, and writes it back at the current version, byte for byte otherwise', () => {
    const v1 = fixture('train-v1.json');
    const file = decodeModelFile(v1);
    expect(file.topics.map((t) => t.name)).toEqual(['finance']);
    expect(file.examples).toHaveLength(8);
    expect(file.levelModels).toEqual([]);
    expect(linkModelOf(file, file.topics[0]!.id)!.vocabularySize).toBe(27);
    expect(encodeModelFile(file)).toBe(asCurrentVersion(v1));
  });

  it('reads a version-1 Dexie file holding undefined, NaN and a Date, and writes the same marks back', () => {
    const v1 = fixture('values-v1.json');
    const file = decodeModelFile(v1);
    expect(file.pages[0]!.label).toBeUndefined();
    expect(file.settings[0]!.value).toStrictEqual({ a: [1, null], b: undefined, c: NaN, d: new Date(5) });
    expect(encodeModelFile(file)).toBe(asCurrentVersion(v1));
  });

  it('refuses a file of a newer format in one line', () => {
    const file = JSON.parse(encodeModelFile(content()));
    file.data.databaseVersion = 4;
    expect(refusal(JSON.stringify(file))).toBe(
      'unsupported model file: written by a newer LinkScent (format 4; this LinkScent reads up to 3): update LinkScent',
    );
  });

  it('refuses a version-1 file that lists a table of version 2', () => {
    const file = JSON.parse(encodeModelFile(content()));
    file.data.databaseVersion = 1;
    expect(refusal(JSON.stringify(file))).toBe("not a LinkScent model file: table 'levelModels' is not part of format 1");
  });
});

/** A version-1 file as this codec writes it: the current version (3), the two level tables of version 2 added, empty. */
function asCurrentVersion(v1: string): string {
  return v1
    .replace('"databaseVersion":1,', '"databaseVersion":3,')
    .replace(/("name":"settings","schema":"key","rowCount":\d+})/, '$1,{"name":"levelModels","schema":"topic","rowCount":0},{"name":"levelFeatures","schema":"[topic+feature],topic","rowCount":0}')
    .replace(/]}}$/, ',{"tableName":"levelModels","inbound":true,"rows":[]},{"tableName":"levelFeatures","inbound":true,"rows":[]}]}}');
}

describe('a bad file is refused in one line naming what is wrong', () => {
  /** The bad file: its text, or the text made from a good file's text, or an edit of its parsed JSON. */
  type Bad = string | { cut: (good: string) => string } | ((file: any) => unknown);
  const rows = (f: any, table: string) => f.data.data.find((entry: any) => entry.tableName === table).rows;
  const cases: [string, Bad, RegExp][] = [
    ['truncated JSON', { cut: (good) => good.slice(0, Math.floor(good.length / 2)) }, /^corrupt model file: invalid JSON at position \d+ \(line 1, column \d+\): the text ends early \(truncated\?\)$/],
    ['a stray comma', '{"formatName": "dexie",, "x": 1}', /^corrupt model file: invalid JSON at position 23 \(line 1, column 24\): expected a property name in double quotes$/],
    ['an empty file', '  \n', /^corrupt model file: the file is empty$/],
    ['JSON that is not a Dexie export', '{"hello": "world"}', /^not a LinkScent model file: not a Dexie export \(no "formatName": "dexie"\)$/],
    ['a JSON list', '[1, 2, 3]', /^not a LinkScent model file: not a Dexie export/],
    ['another format', (f) => (f.formatName = 'idb-backup'), /^not a LinkScent model file: not a Dexie export \("formatName" is "idb-backup", expected "dexie"\)$/],
    ['a newer Dexie format', (f) => (f.formatVersion = 2), /^not a LinkScent model file: Dexie export format version 2 is not supported \(expected 1\)$/],
    ["another app's database", (f) => (f.data.databaseName = 'todo-app'), /^not a LinkScent model file: database "todo-app" is not LinkScent's \("linkscent"\)$/],
    ['a version that is not a number', (f) => (f.data.databaseVersion = 'two'), /^corrupt model file: "databaseVersion" "two" is not a version number$/],
    ['a foreign table', (f) => f.data.tables.push({ name: 'foo', schema: '++id', rowCount: 0 }), /^not a LinkScent model file: table 'foo' unknown$/],
    ['foreign rows', (f) => f.data.data.push({ tableName: 'foo', inbound: true, rows: [] }), /^not a LinkScent model file: table 'foo' unknown$/],
    ['another schema for a table', (f) => (f.data.tables[1].schema = '++id,url'), /^not a LinkScent model file: table 'examples' has schema "\+\+id,url", expected "\+\+id,&\[topic\+key\],topic,label,source,url,pageUrl"$/],
    ['missing rows', (f) => rows(f, 'examples').pop(), /^corrupt model file: table 'examples' lists 40 rows but holds 39$/],
    ['rows kept apart from their keys', (f) => (f.data.data[0].inbound = false), /^corrupt model file: table 'topics' rows are not stored with their keys inline$/],
    ['a bad label', (f) => (rows(f, 'examples')[2].label = true), /^corrupt model file: table 'examples' row 3: "label" must be 0 or 1$/],
    ['an edited example', (f) => (rows(f, 'examples')[4].anchor = 'changed'), /^corrupt model file: table 'examples' row 5: "key" is not the exampleKey/],
    ['a duplicated example', (f) => rows(f, 'examples').push({ ...rows(f, 'examples')[0], id: 999 }) && f.data.tables[1].rowCount++, /^corrupt model file: table 'examples' row 41: key \["finance","[0-9a-f]{16}"\] appears twice$/],
    ['counts that do not add up', (f) => (rows(f, 'features')[0].count = [999, 0]), /^corrupt model file: model of topic 'finance': feature row "a:[^"]+": count 999 in class 0 exceeds the class's 20 examples$/],
    ['features without a model', (f) => (rows(f, 'models').pop(), (f.data.tables[2].rowCount = 0)), /^corrupt model file: table 'features' has rows of topic 'finance', which has no model$/],
    ['a topic without a form', (f) => delete rows(f, 'topics')[0].form, /^corrupt model file: table 'topics' row 1: "form" must be one of bernoulli, multinomial, mixed$/],
    ['a topic of an unknown feature version', (f) => (rows(f, 'topics')[0].featureVersion = 3), /^corrupt model file: table 'topics' row 1: "featureVersion" must be 1 or 2 when given$/],
    ['a topic whose urlTokens is not a boolean', (f) => (rows(f, 'topics')[0].urlTokens = 'yes'), /^corrupt model file: table 'topics' row 1: "urlTokens" must be true or false when given$/],
    ['a level model of one level', (f) => (rows(f, 'levelModels')[0].levels = 1), /^corrupt model file: level model of topic 'finance': "levels" must be a whole number ≥ 2, got 1$/],
    ['level counts of the wrong length', (f) => (rows(f, 'levelModels')[0].tokens = [3, 1]), /^corrupt model file: level model of topic 'finance': "tokens" must be 3 whole numbers ≥ 0, got \[3,1\]$/],
    ['a level feature of the wrong length', (f) => (rows(f, 'levelFeatures')[1].occurrences = [2, 0]), /^corrupt model file: level model of topic 'finance': feature row "a:股票": "occurrences" must be 3 whole numbers ≥ 0, got \[2,0\]$/],
    ['a level feature lost', (f) => (rows(f, 'levelFeatures').pop(), f.data.tables[7].rowCount--), /^corrupt model file: level model of topic 'finance': the header says 2 features but 1 rows were given$/],
    ['level features without a level model', (f) => (rows(f, 'levelModels').pop(), f.data.tables[6].rowCount--), /^corrupt model file: table 'levelFeatures' has rows of topic 'finance', which has no level model$/],
    ['a value type a model file cannot carry', (f) => (rows(f, 'settings')[0].$types = { value: 'map' }), /^corrupt model file: table 'settings' row 1: "value" holds a value of type "map", which a model file cannot carry$/],
    // Issue 13, item 13: an infinite alpha is written as null by JSON; "got null" alone misled.
    ['an alpha JSON wrote as null', (f) => (rows(f, 'models')[0].alpha = null), /^corrupt model file: model of topic 'finance': "alpha" must be a finite number > 0, got null \(JSON has no Infinity or NaN; a writer that had one wrote null\)$/],
    ['a row whose keys include __proto__', (f) => (rows(f, 'models')[0] = JSON.parse('{"__proto__": {"topic": "finance"}}')), /^corrupt model file: table 'models' row 1: "topic" must be a string$/],
    ['a type mark on __proto__', (f) => (rows(f, 'models')[0].$types = JSON.parse('{"__proto__": "Date"}')), /^corrupt model file: table 'models' row 1: "__proto__" holds a value of type "Date", which a model file cannot carry$/],
    ['a type mark for a value the row lacks', (f) => (rows(f, 'topics')[0].$types = { nothing: 'undef' }), /^corrupt model file: table 'topics' row 1: "\$types" names "nothing", which the row does not hold$/],
  ];

  it.each(cases)('%s', (_name, bad, message) => {
    const good = encodeModelFile(content());
    let text: string;
    if (typeof bad === 'string') text = bad;
    else if (typeof bad === 'object') text = bad.cut(good);
    else {
      const file = JSON.parse(good);
      bad(file);
      text = JSON.stringify(file);
    }
    expect(refusal(text)).toMatch(message);
  });
});
