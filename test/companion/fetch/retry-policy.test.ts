import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from '../../../companion/fetch/retry-policy.ts';

const policy = DEFAULT_RETRY_POLICY; // 2 retries, 1 s backoff doubling, Retry-After up to 30 s
const reset = { outcome: 'network-error', status: 0, retryable: true } as const;

describe('retryDelay', () => {
  it('retries a reset twice with a doubling backoff, then gives the failure back', () => {
    expect(retryDelay(reset, 1, policy)).toEqual({ delayMs: 1000, basis: 'backoff' });
    expect(retryDelay(reset, 2, policy)).toEqual({ delayMs: 2000, basis: 'backoff' });
    expect(retryDelay(reset, 3, policy)).toBeUndefined();
    expect(retryDelay(reset, 1, { ...policy, retries: 0 })).toBeUndefined();
  });

  it.each([408, 429, 502, 503, 504])('retries HTTP %i', (status) => {
    expect(retryDelay({ outcome: 'http-error', status, retryable: true }, 1, policy)).toMatchObject({ basis: 'backoff' });
  });

  it.each([
    ['HTTP 500', { outcome: 'http-error', status: 500, retryable: true }],
    ['HTTP 404', { outcome: 'http-error', status: 404, retryable: false }],
    ['DNS failure', { outcome: 'network-error', status: 0, retryable: false }],
    ['a body that cannot be decoded', { outcome: 'network-error', status: 200, retryable: false }],
    ['not HTML', { outcome: 'not-html', status: 200, retryable: false }],
    ['a redirect loop', { outcome: 'redirect-loop', status: 302, retryable: false }],
    ['a page that came', { outcome: 'ok', status: 200 }],
  ] as const)('does not retry %s', (_, page) => {
    expect(retryDelay(page, 1, policy)).toBeUndefined();
  });

  it('retries timeouts and a connection closed mid-response', () => {
    expect(retryDelay({ outcome: 'timeout', status: 0, retryable: true }, 1, policy)).toBeDefined();
    expect(retryDelay({ outcome: 'network-error', status: 200, retryable: true }, 1, policy)).toBeDefined();
  });

  it("waits a 429's or 503's Retry-After, up to the cap, and gives up beyond it", () => {
    const page = { outcome: 'http-error', status: 503, retryable: true } as const;
    expect(retryDelay({ ...page, retryAfterMs: 5_000 }, 1, policy)).toEqual({ delayMs: 5_000, basis: 'retry-after' });
    expect(retryDelay({ ...page, retryAfterMs: 30_000 }, 2, policy)).toEqual({ delayMs: 30_000, basis: 'retry-after' });
    expect(retryDelay({ ...page, retryAfterMs: 30_001 }, 1, policy)).toBeUndefined();
    expect(retryDelay({ ...page, retryAfterMs: 5_000 }, 3, policy)).toBeUndefined(); // retries used up
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0); // in the past
  });

  it('ignores what it does not understand', () => {
    for (const value of [undefined, '', '1.5', '-3', 'soon', '99999999999999999999']) expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
