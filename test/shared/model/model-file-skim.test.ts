/**
 * A model file's text without its examples (`shared/model/model-file-skim.ts`): what is left
 * decodes to the same content but for the examples, whatever pieces the text comes in and
 * whatever the examples' strings hold; the rows left out are still counted; a text the skim does
 * not recognise decodes whole, and a cut one is refused as the full decode refuses it.
 */
import { describe, expect, it } from 'vitest';
import { exampleRows } from '../../../shared/model/example-key.ts';
import { decodeModelFile, decodeSkimmedModelFile, emptyModelFile, encodeModelFile, ModelFileError, type ModelFileContent } from '../../../shared/model/model-file.ts';
import { ExampleSkimmer, skimExamples } from '../../../shared/model/model-file-skim.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink } from '../../../shared/model/types.ts';
import { bagOf, FINANCE_LINKS, FINANCE_TOPIC } from './finance-sports.fixture.ts';

const TOPIC = FINANCE_TOPIC;
const model = new NaiveBayes({ form: 'bernoulli' }).fit(FINANCE_LINKS.map((e) => ({ features: bagOf(e.anchor.replace(/(..)/g, '$1 ')), label: e.label })));

/** Examples whose strings hold what a bracket scan could stumble on, the skim's own marker included. */
const AWKWARD: LabeledLink[] = [
  { url: 'https://a.example.com/]', pageUrl: 'https://a.example.com/', anchor: 'a ] b } c , d', before: '"quoted" \\ back\\slash', after: '[{', label: 1, source: 'user', topic: TOPIC.id },
  { url: 'https://a.example.com/2', pageUrl: 'https://a.example.com/', anchor: '{"tableName":"examples","inbound":true,"rows":[', before: '\\"', after: '\\', label: 0, source: 'user', topic: TOPIC.id },
];

function content(links: LabeledLink[] = [...FINANCE_LINKS, ...AWKWARD]): ModelFileContent {
  const { header, features } = model.toRows(TOPIC.id);
  return {
    ...emptyModelFile(),
    topics: [TOPIC],
    examples: exampleRows(links, 1_700_000_000_000).map((row, i) => ({ ...row, id: i + 1 })),
    models: [{ ...header, savedAt: 1_700_000_000_001 }],
    features,
    pages: [{ topic: TOPIC.id, url: 'https://finance.example.com/1', title: '股票', label: 1, seenAt: 1_700_000_000_002 }],
  };
}

const withoutExamples = (c: ModelFileContent): ModelFileContent => ({ ...c, examples: [] });

/** `text` pushed in pieces of `size` characters. */
function inPieces(text: string, size: number) {
  const skimmer = new ExampleSkimmer();
  for (let at = 0; at < text.length; at += size) skimmer.push(text.slice(at, at + size));
  return skimmer.end();
}

function refusal(decode: () => unknown): string {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelFileError);
    return (error as Error).message;
  }
  throw new Error('decoded a bad file');
}

describe('skimExamples', () => {
  it('leaves out exactly the examples: the rest decodes as the whole text does, and the rows are counted', () => {
    const text = encodeModelFile(content());
    const skimmed = skimExamples(text)!;
    expect(skimmed.examples).toBe(FINANCE_LINKS.length + AWKWARD.length);
    expect(skimmed.text.length).toBeLessThan(text.length);
    expect(skimmed.text).toContain('{"tableName":"examples","inbound":true,"rows":[]}');
    expect(decodeSkimmedModelFile(skimmed)).toStrictEqual(withoutExamples(decodeModelFile(text)));
    expect(decodeModelFile(text, { examples: false })).toStrictEqual(withoutExamples(content()));
  });

  it('gives the same text and count whatever pieces the text comes in', () => {
    const text = encodeModelFile(content());
    const whole = skimExamples(text);
    for (const size of [1, 2, 7, 46, 47, 48, 49, 100, 4096]) expect(inPieces(text, size), `pieces of ${size}`).toStrictEqual(whole);
  });

  it('counts an empty examples table as 0 rows, and a file without one as not skimmed', () => {
    const empty = encodeModelFile(content([]));
    expect(skimExamples(empty)).toStrictEqual({ text: empty, examples: 0 });
    expect(decodeModelFile(empty, { examples: false })).toStrictEqual(content([]));
    // Written with white space (not as exportDB writes): not recognised, decoded whole, examples included.
    const spaced = JSON.stringify(JSON.parse(encodeModelFile(content())), null, 2);
    expect(skimExamples(spaced)).toStrictEqual({ text: spaced, examples: undefined });
    expect(decodeModelFile(spaced, { examples: false })).toStrictEqual(content());
  });

  it('still refuses a file whose examples table lists more rows than it holds', () => {
    const text = encodeModelFile(content()).replace(`"name":"examples","schema":"++id,&[topic+key],topic,label,source,url,pageUrl","rowCount":${FINANCE_LINKS.length + 2}`, `"name":"examples","schema":"++id,&[topic+key],topic,label,source,url,pageUrl","rowCount":${FINANCE_LINKS.length + 3}`);
    expect(text).not.toBe(encodeModelFile(content()));
    const message = `corrupt model file: table 'examples' lists ${FINANCE_LINKS.length + 3} rows but holds ${FINANCE_LINKS.length + 2}`;
    expect(refusal(() => decodeModelFile(text, { examples: false }))).toBe(message);
    expect(refusal(() => decodeModelFile(text))).toBe(message);
  });

  it('cannot skim a file cut inside its examples: decoding it so is refused as decoding it whole is', () => {
    const text = encodeModelFile(content());
    const cut = text.slice(0, text.indexOf('"rows":[', text.indexOf('"tableName":"examples"')) + 200);
    expect(skimExamples(cut)).toBeUndefined();
    expect(refusal(() => decodeModelFile(cut, { examples: false }))).toBe(refusal(() => decodeModelFile(cut)));
  });
});
