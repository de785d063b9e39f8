// @vitest-environment happy-dom
/** The options page, driven through its own HTML with a fake `browser` (the only fake). */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Topic } from '../../../shared/model/types.ts';
import type { ExtensionSettings, TopicInput } from '../../../extension/messages/settings.ts';
import { startOptions } from '../../../extension/options/options.ts';
import { hostOfLine, parseExcludedSites } from '../../../extension/options/excluded-sites.ts';
import { fakeBrowser, type Handlers } from './fake-browser.ts';
import { loadPage, untranslated } from './load-page.ts';

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const field = <T extends HTMLElement = HTMLInputElement>(form: string, name: string) =>
  ($<HTMLFormElement>(form).elements.namedItem(name) as unknown) as T;

/** A small in-memory background for topics and settings. */
function background(extra: Handlers = {}) {
  const topics: Topic[] = [
    { id: 't1', name: '财经 finance', lexicon: ['股票', '基金'], positive: ['finance.example.com'], negative: [], threshold: 0.6, featureGroup: 2, form: 'bernoulli', window: 80 },
    { id: 't2', name: '<img src=x onerror=alert(1)>', lexicon: [], positive: [], negative: [], threshold: 0.5, featureGroup: 1, form: 'multinomial', window: 40 },
  ];
  let activeId: string | null = 't1';
  let settings: ExtensionSettings = { activeTopicId: 't1', excludedSites: ['mail.example.com'], maxLinksPerPage: 2000 };
  const handlers: Handlers = {
    'topics/list': () => ({ topics: structuredClone(topics), activeId }),
    'topics/save': (m) => {
      const input = m['topic'] as TopicInput;
      const saved: Topic = {
        id: input.id ?? `t${topics.length + 1}`,
        name: input.name,
        lexicon: input.lexicon ?? [],
        positive: input.positive ?? [],
        negative: input.negative ?? [],
        threshold: input.threshold ?? 0.5,
        featureGroup: input.featureGroup ?? 2,
        form: input.form ?? 'bernoulli',
        window: input.window ?? 80,
      };
      const at = topics.findIndex((t) => t.id === saved.id);
      if (at >= 0) topics[at] = saved;
      else topics.push(saved);
      return { ok: true, topic: saved };
    },
    'topics/delete': (m) => {
      topics.splice(topics.findIndex((t) => t.id === m['topicId']), 1);
      return { ok: true };
    },
    'topics/activate': (m) => {
      activeId = m['topicId'] as string;
      return { ok: true };
    },
    'settings/get': () => settings,
    'settings/save': (m) => {
      settings = { ...settings, ...(m['settings'] as Partial<ExtensionSettings>) };
      return { ok: true, settings };
    },
    ...extra,
  };
  return { topics, handlers };
}

async function open(extra: Handlers = {}) {
  loadPage('extension/options/index.html');
  const state = background(extra);
  const browser = fakeBrowser(state.handlers);
  await startOptions(document, browser);
  return { browser, state };
}

const rows = () => [...document.querySelectorAll('#topic-list li')];
const submit = (form: string) => $<HTMLFormElement>(form).dispatchEvent(new Event('submit', { cancelable: true }));
const sentOf = (browser: ReturnType<typeof fakeBrowser>, type: string) => browser.sent.filter((m) => m['type'] === type);

function chooseFile(input: HTMLInputElement, file: File): void {
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  input.dispatchEvent(new Event('change'));
}

beforeEach(() => {
  document.body.replaceChildren();
});

describe('options page', () => {
  it('lists topics (names as text) and shows the settings', async () => {
    await open();
    expect(untranslated()).toEqual([]);
    expect(rows().map((row) => row.querySelector('.name')!.textContent)).toEqual(['财经 finance', '<img src=x onerror=alert(1)>']);
    expect(document.querySelector('#topic-list img')).toBeNull();
    expect(rows()[0]!.querySelector('.active')!.textContent).toBe('Active');
    expect(rows()[1]!.querySelector('.activate')).not.toBeNull();
    expect(field<HTMLTextAreaElement>('#settings-form', 'excludedSites').value).toBe('mail.example.com');
    expect(field('#settings-form', 'maxLinksPerPage').value).toBe('2000');
  });

  it('creates a topic with every field', async () => {
    const { browser } = await open();
    $('#topic-new').click();
    expect($('#topic-form').hidden).toBe(false);
    expect(field('#topic-form', 'threshold').value).toBe('0.5');
    field('#topic-form', 'name').value = '  招聘 jobs ';
    field<HTMLTextAreaElement>('#topic-form', 'lexicon').value = '招聘\n\n 岗位 \n招聘';
    field<HTMLTextAreaElement>('#topic-form', 'positive').value = 'jobs.example.com\nhttps://example.org/jobs/*';
    field<HTMLTextAreaElement>('#topic-form', 'negative').value = '';
    field('#topic-form', 'threshold').value = '0.7';
    field('#topic-form', 'window').value = '60';
    field<HTMLSelectElement>('#topic-form', 'featureGroup').value = '1';
    field<HTMLSelectElement>('#topic-form', 'form').value = 'multinomial';
    // A new topic starts with URL tokens and a threshold calibrated for the best F1.
    expect(field<HTMLSelectElement>('#topic-form', 'urlTokens').value).toBe('true');
    expect(field<HTMLSelectElement>('#topic-form', 'thresholdMode').value).toBe('f1');
    field<HTMLSelectElement>('#topic-form', 'thresholdMode').value = 'precision';
    field('#topic-form', 'targetPrecision').value = '0.85';
    submit('#topic-form');
    await vi.waitFor(() => expect($('#topic-status').textContent).toBe('Saved.'));
    expect(sentOf(browser, 'topics/save')).toEqual([
      {
        type: 'topics/save',
        topic: {
          name: '招聘 jobs',
          lexicon: ['招聘', '岗位'],
          positive: ['jobs.example.com', 'https://example.org/jobs/*'],
          negative: [],
          threshold: 0.7,
          featureGroup: 1,
          form: 'multinomial',
          window: 60,
          urlTokens: true,
          thresholdMode: 'precision',
          targetPrecision: 0.85,
        },
      },
    ]);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    // The form now edits the saved topic: a second save updates it rather than adding one.
    expect(field('#topic-form', 'id').value).toBe('t3');
  });

  it('refuses a bad threshold or window before sending anything', async () => {
    const { browser } = await open();
    $('#topic-new').click();
    field('#topic-form', 'name').value = 'x';
    field('#topic-form', 'threshold').value = '2';
    submit('#topic-form');
    await vi.waitFor(() => expect($('#topic-status').textContent).toBe('The threshold must be a number from 0 to 1.'));
    field('#topic-form', 'threshold').value = '0.5';
    field('#topic-form', 'window').value = '2.5';
    submit('#topic-form');
    await vi.waitFor(() => expect($('#topic-status').textContent).toMatch(/context window must be a whole number/));
    field('#topic-form', 'name').value = ' ';
    submit('#topic-form');
    await vi.waitFor(() => expect($('#topic-status').textContent).toBe('Give the topic a name.'));
    expect(sentOf(browser, 'topics/save')).toEqual([]);
    expect($('#topic-status').classList.contains('error')).toBe(true);
  });

  it('edits a topic, keeping its id, and shows the background’s failure line', async () => {
    const { browser } = await open({ 'topics/save': { ok: false, error: 'A topic with this name exists.' } });
    (rows()[0]!.querySelector('.edit') as HTMLButtonElement).click();
    expect(field('#topic-form', 'name').value).toBe('财经 finance');
    expect(field<HTMLTextAreaElement>('#topic-form', 'lexicon').value).toBe('股票\n基金');
    expect(field('#topic-form', 'threshold').value).toBe('0.6');
    submit('#topic-form');
    await vi.waitFor(() => expect($('#topic-status').textContent).toBe('A topic with this name exists.'));
    expect((sentOf(browser, 'topics/save')[0]!['topic'] as TopicInput).id).toBe('t1');
  });

  it('deletes a topic on the second click only, and activates another', async () => {
    const { browser } = await open();
    const remove = rows()[1]!.querySelector('.delete') as HTMLButtonElement;
    remove.click();
    expect(sentOf(browser, 'topics/delete')).toEqual([]);
    expect(remove.textContent).toContain('Click again');
    remove.click();
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(sentOf(browser, 'topics/delete')).toEqual([{ type: 'topics/delete', topicId: 't2' }]);

    $('#topic-new').click();
    field('#topic-form', 'name').value = 'second';
    submit('#topic-form');
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    (rows()[1]!.querySelector('.activate') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(rows()[1]!.querySelector('.active')).not.toBeNull());
  });

  it('saves excluded sites as hosts and the per-page cap', async () => {
    const { browser } = await open();
    field<HTMLTextAreaElement>('#settings-form', 'excludedSites').value = 'https://Mail.Example.com/inbox\n*.bank.example\n例子.中国';
    field('#settings-form', 'maxLinksPerPage').value = '500';
    submit('#settings-form');
    await vi.waitFor(() => expect($('#settings-status').textContent).toBe('Saved.'));
    expect(sentOf(browser, 'settings/save')).toEqual([
      { type: 'settings/save', settings: { excludedSites: ['mail.example.com', 'bank.example', 'xn--fsqu00a.xn--fiqs8s'], maxLinksPerPage: 500 } },
    ]);

    field<HTMLTextAreaElement>('#settings-form', 'excludedSites').value = 'good.example\nnot a host';
    submit('#settings-form');
    await vi.waitFor(() => expect($('#settings-status').textContent).toBe('Not a host name: not a host'));
    expect(sentOf(browser, 'settings/save')).toHaveLength(1);
  });

  it('exports the database as a download of the background’s file', async () => {
    const fileText = '{"formatName":"dexie","formatVersion":1,"data":{}}';
    const { browser } = await open({ 'db/export': { ok: true, fileText, fileName: 'linkscent-2025-01-01.json' } });
    const clicked: HTMLAnchorElement[] = [];
    document.addEventListener('click', (event) => {
      if (event.target instanceof HTMLAnchorElement) {
        clicked.push(event.target);
        event.preventDefault();
      }
    });
    $('#export').click();
    await vi.waitFor(() => expect($('#data-status').textContent).toBe('Exported as linkscent-2025-01-01.json.'));
    expect(sentOf(browser, 'db/export')).toHaveLength(1);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('linkscent-2025-01-01.json');
    expect(clicked[0]!.href).toMatch(/^blob:/);
    expect(clicked[0]!.isConnected).toBe(false);
  });

  it('imports a file, and on a corrupt one shows the one-line error and reloads nothing', async () => {
    const { browser } = await open({
      'db/import': (m) => {
        try {
          JSON.parse(String(m['fileText']));
          return { ok: true, topics: 2, examples: 42, duplicates: 5, total: 99, replaced: m['replace'] === true };
        } catch {
          return { ok: false, error: 'Not a LinkScent export file: unexpected end of JSON. Nothing was changed.' };
        }
      },
    });
    const input = $<HTMLInputElement>('#import-file');
    const listsBefore = sentOf(browser, 'topics/list').length;

    chooseFile(input, new File(['{"formatName":"dex'], 'broken.json', { type: 'application/json' }));
    await vi.waitFor(() => expect($('#data-status').textContent).toBe('Not a LinkScent export file: unexpected end of JSON. Nothing was changed.'));
    expect($('#data-status').classList.contains('error')).toBe(true);
    expect(sentOf(browser, 'db/import')).toEqual([{ type: 'db/import', fileText: '{"formatName":"dex' }]);
    expect(sentOf(browser, 'topics/list')).toHaveLength(listsBefore);

    chooseFile(input, new File(['{"formatName":"dexie"}'], 'good.json'));
    await vi.waitFor(() => expect($('#data-status').textContent).toBe('Imported: 2 topics; 42 new examples, 5 already here.'));
    await vi.waitFor(() => expect(sentOf(browser, 'topics/list')).toHaveLength(listsBefore + 1));

    chooseFile(input, new File([], 'empty.json'));
    await vi.waitFor(() => expect($('#data-status').textContent).toBe('The file is empty. Nothing was changed.'));
    expect(sentOf(browser, 'db/import')).toHaveLength(2);
  });

  it('replaces everything only from its own control, and only after the user confirms', async () => {
    const { browser } = await open({ 'db/import': () => ({ ok: true, topics: 1, examples: 3, duplicates: 0, total: 3 }) });
    const answers = [false, true];
    const asked: string[] = [];
    window.confirm = (question?: string) => (asked.push(String(question)), answers.shift()!);
    const input = $<HTMLInputElement>('#replace-file');
    chooseFile(input, new File(['{"formatName":"dexie"}'], 'other.json'));
    await vi.waitFor(() => expect($('#data-status').textContent).toBe('Nothing was replaced.'));
    expect(sentOf(browser, 'db/import')).toEqual([]);
    chooseFile(input, new File(['{"formatName":"dexie"}'], 'other.json'));
    await vi.waitFor(() => expect($('#data-status').textContent).toBe("Replaced: the database now holds the file's 1 topics and 3 examples."));
    expect(sentOf(browser, 'db/import')).toEqual([{ type: 'db/import', fileText: '{"formatName":"dexie"}', replace: true }]);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/will be lost/);
  });
});

describe('excluded sites', () => {
  it('reduces URLs and wildcards to hosts and reports the first bad line', () => {
    expect(hostOfLine('HTTPS://News.Example.com:8443/a?b#c')).toBe('news.example.com');
    expect(hostOfLine('*.example.org')).toBe('example.org');
    expect(hostOfLine('localhost')).toBe('localhost');
    expect(hostOfLine('two words')).toBeNull();
    expect(parseExcludedSites('a.example\n\nA.example\nb.example')).toEqual({ hosts: ['a.example', 'b.example'] });
    expect(parseExcludedSites('a.example\n[::1]\n')).toEqual({ invalid: '[::1]' });
  });
});
