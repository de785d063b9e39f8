import { describe, expect, it } from 'vitest';
import { boundRobotsRules, MAX_ROBOTS_RULES, WILDCARD_BUDGET, wildcardCost } from '../../../companion/fetch/robots-budget.ts';

describe('wildcardCost', () => {
  it('counts the characters after the first *, a trailing * aside', () => {
    expect(wildcardCost('/private')).toBe(0);
    expect(wildcardCost('/private*')).toBe(0);
    expect(wildcardCost('*')).toBe(0);
    expect(wildcardCost('/*?sort=')).toBe(6);
    expect(wildcardCost('/*a*b$')).toBe(4);
  });
});

describe('boundRobotsRules', () => {
  it('leaves a file within the bounds as it was', () => {
    const text = 'User-agent: *\r\nDisallow: /*?sort=\r\nAllow: /a\r\n# comment\r\n';
    expect(boundRobotsRules(text)).toEqual({ text, dropped: 0 });
  });

  it('keeps the first MAX_ROBOTS_RULES rules, every other line, and counts the rest', () => {
    const lines = ['User-agent: *', ...Array.from({ length: MAX_ROBOTS_RULES + 3 }, (_, i) => `Disallow: /d${i}`), 'Crawl-delay: 2'];
    const { text, dropped } = boundRobotsRules(lines.join('\n'));
    const kept = text.split('\n');
    expect(dropped).toBe(3);
    expect(kept).toHaveLength(lines.length - 3);
    expect(kept.at(-2)).toBe(`Disallow: /d${MAX_ROBOTS_RULES - 1}`);
    expect(kept.at(-1)).toBe('Crawl-delay: 2');
  });

  it('stops taking wildcard rules at WILDCARD_BUDGET, and still takes plain ones after', () => {
    const costly = 'Disallow: /*' + 'a'.repeat(1023); // 1,023 characters after the *
    const fit = Math.floor(WILDCARD_BUDGET / 1023);
    const lines = ['User-agent: *', ...Array.from({ length: fit + 2 }, () => costly), 'Disallow: /plain', 'disallow:/*x*y # cheap'];
    const { text, dropped } = boundRobotsRules(lines.join('\n'));
    expect(dropped).toBe(2);
    expect(text.split('\n').filter((line) => line === costly)).toHaveLength(fit);
    expect(text).toContain('Disallow: /plain');
    // 16 × 1,023 leaves 16 characters of budget: `*x*y` costs 3 and fits.
    expect(text).toContain('disallow:/*x*y # cheap');
  });
});
