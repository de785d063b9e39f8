import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listTopics, loadTopic, MAX_SAMPLES, TopicDirectoryError } from '../../../companion/crawl/topic-directory.ts';
import { tempDir } from './crawl-test-helpers.ts';

const { dir, cleanup } = tempDir('linkscent-topics-');
afterAll(cleanup);
const file = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
file('经济/财经/a.txt', '股票 基金');
file('经济/财经/b.txt', '债券');
file('经济/财经/synonyms.txt', '股票 股市\n');
file('体育/足球/about.txt', '足球 联赛');
file('体育/only-synonyms/synonyms.txt', 'a b\n');
file('体育/bad-synonyms/about.txt', '篮球');
file('体育/bad-synonyms/synonyms.txt', 'a b\nlonely\n');
file('readme.md', 'not a sample');

describe('topic directory (seed 003 §3.2, topic choice)', () => {
  it('lists the folders that hold a sample text, by path', () => {
    expect(listTopics(dir)).toEqual(['体育/bad-synonyms', '体育/足球', '经济/财经']);
  });

  it('loads a topic: its samples in file order and its synonym list', () => {
    expect(loadTopic(dir, '经济/财经')).toEqual({ name: '经济/财经', samples: ['股票 基金', '债券'], synonyms: [{ similarity: 1, words: ['股票', '股市'], line: 1 }] });
    expect(loadTopic(dir, '体育/足球')).toEqual({ name: '体育/足球', samples: ['足球 联赛'] });
  });

  it('says in one line what is wrong, listing the topics there are', () => {
    expect(() => loadTopic(dir, '经济/体育')).toThrow(new TopicDirectoryError(`--topic-dir ${dir} has no topic "经济/体育"; topics: 体育/bad-synonyms, 体育/足球, 经济/财经 (3 in all)`));
    expect(() => loadTopic(dir, '体育/only-synonyms')).toThrow(/topic "体育\/only-synonyms" holds no sample text \(\*\.txt\)/);
    expect(() => loadTopic(dir, '../x')).toThrow('--topic-name "../x" is not a topic path (folders under --topic-dir joined by /)');
    expect(() => loadTopic(dir, '体育/bad-synonyms')).toThrow(`${join(dir, '体育/bad-synonyms/synonyms.txt')}:2: a group needs at least two words`);
    expect(() => listTopics(join(dir, 'none'))).toThrow(`cannot read --topic-dir ${join(dir, 'none')}: no such folder`);
  });

  it('bounds the samples read for one topic', () => {
    for (let i = 0; i <= MAX_SAMPLES; i++) file(`many/t/${i}.txt`, 'x');
    expect(() => loadTopic(dir, 'many/t')).toThrow(`topic "many/t" holds ${MAX_SAMPLES + 1} sample texts, more than ${MAX_SAMPLES}`);
  });
});
