import { describe, expect, it } from 'vitest';
import { PageReports } from '../../../companion/crawl/page-reports.ts';

/** A report that ends when the test says. */
function held() {
  let end!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  return { report: () => done, end, fail };
}

/** Lets the promise jobs queued so far run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('PageReports (a page\'s report beside its worker)', () => {
  it('lets the worker go on while fewer than limit reports wait, and holds it at the limit until one ends', async () => {
    const reports = new PageReports(2, () => {});
    const a = held();
    const b = held();
    let passedA = false;
    let passedB = false;
    void reports.add(a.report).then(() => (passedA = true));
    await settle();
    expect(passedA).toBe(true);
    void reports.add(b.report).then(() => (passedB = true));
    await settle();
    expect(passedB).toBe(false); // two wait: the second worker waits too
    expect(reports.pending).toBe(2);
    a.end();
    await settle();
    expect(passedB).toBe(true);
    expect(reports.pending).toBe(1);
    b.end();
    await reports.drain();
    expect(reports.pending).toBe(0);
  });

  it('hands the first failure to onFailure once, frees waiting workers, and drain never rejects', async () => {
    const heard: unknown[] = [];
    const reports = new PageReports(1, (error) => heard.push(error));
    const a = held();
    const b = held();
    const waiting = reports.add(a.report);
    a.fail(new Error('EIO'));
    await waiting; // the worker is let go: the crawl stops through onFailure
    void reports.add(b.report);
    b.fail(new Error('EIO again'));
    await reports.drain();
    expect(heard).toEqual([new Error('EIO')]);
    expect(reports.failure).toEqual(new Error('EIO'));
  });

  it('a report that throws at once is a failure like any other', async () => {
    const heard: unknown[] = [];
    const reports = new PageReports(4, (error) => heard.push(error));
    await reports.add(() => Promise.reject(new Error('no disk')));
    await reports.drain();
    expect(heard).toEqual([new Error('no disk')]);
  });

  it('refuses a limit below 1', () => {
    expect(() => new PageReports(0, () => {})).toThrow('page reports: limit must be a whole number ≥ 1, got 0');
  });
});
