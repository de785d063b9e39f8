import { describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS, FetchOptionsError, validateFetchOptions } from '../../../companion/fetch/fetch-options.ts';

describe('validateFetchOptions', () => {
  it('fills every default', () => {
    expect(validateFetchOptions()).toEqual(DEFAULT_FETCH_OPTIONS);
    expect(validateFetchOptions({ maxBytes: 1024, userAgent: undefined })).toEqual({ ...DEFAULT_FETCH_OPTIONS, maxBytes: 1024 });
  });

  it('has the documented defaults', () => {
    expect(DEFAULT_FETCH_OPTIONS).toEqual({
      userAgent: 'LinkScent/0.1 (+https://github.com/linkscent; focused crawler)',
      connectTimeoutMs: 10_000, responseTimeoutMs: 30_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5,
    });
  });

  it('rejects an unknown option by name, so a typo does not keep the default', () => {
    expect(() => validateFetchOptions({ maxByte: 10 } as never)).toThrow(new FetchOptionsError("unknown fetch option 'maxByte' (known: userAgent, connectTimeoutMs, responseTimeoutMs, maxBytes, maxRedirects)"));
  });

  it.each([
    [{ maxBytes: 0 }, /maxBytes must be a whole number > 0, got 0/],
    [{ responseTimeoutMs: 1.5 }, /responseTimeoutMs/],
    [{ connectTimeoutMs: -1 }, /connectTimeoutMs/],
    [{ maxRedirects: -1 }, /maxRedirects must be a whole number ≥ 0/],
    [{ userAgent: 'a\r\nX-Injected: 1' }, /userAgent/],
    [{ userAgent: ' ' }, /userAgent/],
  ])('rejects %o', (input, message) => {
    expect(() => validateFetchOptions(input)).toThrow(message);
  });

  it('allows maxRedirects 0 (follow none)', () => {
    expect(validateFetchOptions({ maxRedirects: 0 }).maxRedirects).toBe(0);
  });
});
