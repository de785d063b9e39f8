/**
 * classifyFetchFailure maps thrown errors to outcome, message and reaction in one place. The
 * HTTP-level cases are exercised for real in fetch-limits.test.ts; these are the shapes that a
 * loopback server cannot produce (DNS, TLS, happy-eyeballs AggregateErrors, wrapped causes).
 */
import { describe, expect, it } from 'vitest';
import { classifyFetchFailure, isRetryable, reactionForPage, ResponseDeadlineError } from '../../../companion/fetch/fetch-errors.ts';

const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code });

describe('classifyFetchFailure', () => {
  it.each([
    ['ECONNREFUSED', 'network-error', true, 'connection refused'],
    ['ECONNRESET', 'network-error', true, 'connection reset by the server'],
    ['UND_ERR_SOCKET', 'network-error', true, 'connection closed by the server mid-response'],
    ['ENOTFOUND', 'network-error', false, 'host not found (DNS)'],
    ['EAI_AGAIN', 'network-error', true, 'DNS lookup failed temporarily'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', true, 'connect timed out'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', true, 'no response headers in time'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout', true, 'response body stalled'],
  ])('%s → %s, retryable %s', (code, outcome, retryable, message) => {
    const err = coded(code, `${code} long\nmultiline detail`);
    expect(classifyFetchFailure(err)).toEqual({ outcome, retryable, message, code, reaction: retryable ? 'retry' : 'skip', cause: err });
  });

  it('names our own response deadline as a retryable timeout', () => {
    expect(classifyFetchFailure(new ResponseDeadlineError(250))).toMatchObject({ outcome: 'timeout', message: 'response not complete within 250 ms', retryable: true, reaction: 'retry' });
  });

  it('finds the code inside an AggregateError (one error per address tried)', () => {
    const err = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed');
    expect(classifyFetchFailure(err)).toMatchObject({ code: 'ECONNREFUSED', message: 'connection refused', cause: err });
  });

  it('finds the code down a cause chain', () => {
    const err = new TypeError('fetch failed', { cause: coded('ENOTFOUND', 'getaddrinfo ENOTFOUND nowhere.invalid') });
    expect(classifyFetchFailure(err)).toMatchObject({ code: 'ENOTFOUND', retryable: false, cause: err });
  });

  it('treats an abort as a reason to stop, not to retry or skip', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(classifyFetchFailure(abort).reaction).toBe('stop');
    expect(classifyFetchFailure(coded('UND_ERR_ABORTED')).reaction).toBe('stop');
  });

  it('does not retry malformed HTTP, bad TLS or a corrupt compressed body', () => {
    expect(classifyFetchFailure(coded('HPE_INVALID_CONSTANT'))).toMatchObject({ message: 'malformed HTTP response', retryable: false });
    expect(classifyFetchFailure(coded('CERT_HAS_EXPIRED'))).toMatchObject({ message: 'TLS failed: CERT_HAS_EXPIRED', retryable: false });
    expect(classifyFetchFailure(coded('Z_DATA_ERROR', 'incorrect header check'))).toMatchObject({ message: 'body could not be decompressed: incorrect header check', retryable: false });
  });

  it('gives an unknown error its first line, not retryable', () => {
    expect(classifyFetchFailure(new Error('something odd\nstack-ish'))).toMatchObject({ outcome: 'network-error', message: 'something odd', retryable: false, reaction: 'skip' });
    expect(classifyFetchFailure('a string')).toMatchObject({ message: 'a string', retryable: false });
  });
});

describe('isRetryable / reactionForPage', () => {
  it('retries timeouts and server trouble, skips the rest', () => {
    expect(isRetryable({ outcome: 'timeout', status: 0 })).toBe(true);
    expect(isRetryable({ outcome: 'http-error', status: 503 })).toBe(true);
    expect(isRetryable({ outcome: 'http-error', status: 429 })).toBe(true);
    expect(isRetryable({ outcome: 'http-error', status: 404 })).toBe(false);
    expect(isRetryable({ outcome: 'not-html', status: 200 })).toBe(false);
    expect(isRetryable({ outcome: 'redirect-loop', status: 302 })).toBe(false);
  });

  it('has no reaction for a good page and follows the page’s own retryable flag', () => {
    expect(reactionForPage({ outcome: 'ok', status: 200 })).toBeUndefined();
    expect(reactionForPage({ outcome: 'network-error', status: 0, retryable: true })).toBe('retry');
    expect(reactionForPage({ outcome: 'network-error', status: 0, retryable: false })).toBe('skip');
  });
});
