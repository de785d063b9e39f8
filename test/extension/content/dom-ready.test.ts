/** Waiting for the parsed document from idle checks, never from a listener in the parser's task. */
import { describe, expect, it } from 'vitest';
import { documentParsed } from '../../../extension/content/dom-ready.ts';

describe('documentParsed', () => {
  it('resolves at once when the document is parsed already', async () => {
    let asked = 0;
    await documentParsed({ readyState: 'interactive' }, () => asked++);
    expect(asked).toBe(0);
  });

  it('checks again at each idle period until the document is parsed', async () => {
    const doc: { readyState: DocumentReadyState } = { readyState: 'loading' };
    const idle: (() => void)[] = [];
    let done = false;
    const parsed = documentParsed(doc, (callback) => idle.push(() => callback({ timeRemaining: () => 10 }))).then(() => (done = true));
    idle.shift()!();
    idle.shift()!();
    await Promise.resolve();
    expect(done).toBe(false);
    doc.readyState = 'interactive';
    idle.shift()!();
    await parsed;
    expect(done).toBe(true);
    expect(idle).toHaveLength(0);
  });
});
