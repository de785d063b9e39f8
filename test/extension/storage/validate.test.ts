import { describe, expect, it } from 'vitest';
import { isExcluded, mergeSettings, normalizeHost, SETTINGS_DEFAULTS, validateTopic } from '../../../extension/storage/validate.ts';

describe('topic validation', () => {
  it('fills the defaults and cleans the lists', () => {
    const checked = validateTopic({ name: '  财经 ', lexicon: ['股票', ' ', '股票', '基金'], positive: [' finance.example.org '] }, () => 'new-id');
    expect(checked).toEqual({
      ok: true,
      value: {
        id: 'new-id',
        name: '财经',
        lexicon: ['股票', '基金'],
        positive: ['finance.example.org'],
        negative: [],
        threshold: 0.5,
        featureGroup: 2,
        form: 'mixed',
        window: 80,
        urlTokens: true,
        featureVersion: 2,
        thresholdMode: 'f1',
      },
    });
  });

  it('keeps the id of an existing topic', () => {
    const checked = validateTopic({ id: 'keep', name: 'x' }, () => 'new');
    expect(checked.ok && checked.value.id).toBe('keep');
  });

  it.each([
    [{ name: '' }, /needs a name/],
    [{ name: 'x', threshold: 1 }, /threshold/],
    [{ name: 'x', threshold: Number.NaN }, /threshold/],
    [{ name: 'x', window: 5 }, /window/],
    [{ name: 'x', window: 80.5 }, /window/],
    [{ name: 'x', featureGroup: 3 as never }, /feature group/],
    [{ name: 'x', form: 'gaussian' as never }, /form/],
    [{ name: 'x', positive: ['exa mple.org'] }, /On-topic pattern/],
    [{ name: 'x', negative: ['bad host'] }, /Off-topic pattern/],
    [{ name: 'x', thresholdMode: 'precision' as const }, /target precision/],
    [{ name: 'x', thresholdMode: 'precision' as const, targetPrecision: 1 }, /target precision/],
    [{ name: 'x', thresholdMode: 'median' as never }, /f1, precision or fixed/],
  ])('refuses %j with a sentence', (input, message) => {
    const checked = validateTopic(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toMatch(message);
  });
});

describe('settings', () => {
  it('normalises excluded sites to hosts and refuses a non-host', () => {
    const merged = mergeSettings(SETTINGS_DEFAULTS, { excludedSites: ['https://www.Example.org/path', 'news.example.com', '', 'example.org'] });
    expect(merged).toEqual({ ok: true, value: { ...SETTINGS_DEFAULTS, excludedSites: ['example.org', 'news.example.com'] } });
    expect(mergeSettings(SETTINGS_DEFAULTS, { excludedSites: ['http://[x'] }).ok).toBe(false);
    expect(mergeSettings(SETTINGS_DEFAULTS, { maxLinksPerPage: 3 }).ok).toBe(false);
  });

  it('excludes a listed site and its subdomains only', () => {
    expect(isExcluded('example.org', ['example.org'])).toBe(true);
    expect(isExcluded('www.example.org', ['example.org'])).toBe(true);
    expect(isExcluded('a.b.example.org', ['example.org'])).toBe(true);
    expect(isExcluded('badexample.org', ['example.org'])).toBe(false);
    expect(normalizeHost('  ')).toBeNull();
  });
});
