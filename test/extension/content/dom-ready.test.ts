/** Waiting for the parsed document from timer checks, never from a listener in the parser's task. */
import { describe, expect, it } from 'vitest';
import { documentParsed, PARSED_CHECK_MS } from '../../../extension/content/dom-ready.ts';

describe('documentParsed', () => {
  it('resolves at once when the document is parsed already', async () => {
    let asked = 0;
    await documentParsed({ readyState: 'interactive' }, () => asked++);
    expect(asked).toBe(0);
  });

  it('checks again every few milliseconds until the document is parsed', async () => {
    const doc: { readyState: DocumentReadyState } = { readyState: 'loading' };
    const checks: { callback: () => void; ms: number }[] = [];
    let done = false;
    const parsed = documentParsed(doc, (callback, ms) => checks.push({ callback, ms })).then(() => (done = true));
    checks.shift()!.callback();
    checks.shift()!.callback();
    await Promise.resolve();
    expect(done).toBe(false);
    doc.readyState = 'interactive';
    checks.shift()!.callback();
    await parsed;
    expect(done).toBe(true);
    expect(checks).toHaveLength(0);
  });

  it('waits between checks rather than spinning', async () => {
    const doc: { readyState: DocumentReadyState } = { readyState: 'loading' };
    const delays: number[] = [];
    void documentParsed(doc, (_callback, ms) => delays.push(ms));
    expect(delays).toEqual([PARSED_CHECK_MS]);
    expect(PARSED_CHECK_MS).toBeGreaterThan(0);
  });
});
