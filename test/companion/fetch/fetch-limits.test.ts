/**
 * fetchPage's limits against a hostile server: deadlines that catch stalls and trickles, byte
 * caps that stop huge pages and decompression bombs, and failures reported as outcomes. Each
 * test uses small limits and asserts it finished quickly *because* of them, and, where a
 * connection was cut, that the server saw the socket close (nothing left half-read in a pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS, type FetchOptions } from '../../../companion/fetch/fetch-options.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { closeSharedAgents } from '../../../companion/fetch/http-agent.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

const options: FetchOptions = { ...DEFAULT_FETCH_OPTIONS, connectTimeoutMs: 2_000, responseTimeoutMs: 400, maxBytes: 256 * 1024 };
let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await closeSharedAgents();
  await server.close();
});

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work;
  return { result, ms: performance.now() - start };
}

/** Waits (up to 3 s) until the server has seen the socket of the last request for `path` close. */
async function serverSawClose(path: string): Promise<boolean> {
  const record = server.requests.findLast((r) => r.path === path);
  for (let i = 0; i < 60 && record && !record.socketClosed; i++) await new Promise((r) => setTimeout(r, 50));
  return record?.socketClosed ?? false;
}

describe('fetchPage: deadlines', () => {
  it('gives up on a response that sends headers and then stalls, and frees the socket', async () => {
    const { result, ms } = await timed(fetchPage(`${server.origin}/stall`, options));
    expect(result).toMatchObject({ outcome: 'timeout', status: 200, retryable: true, error: 'response not complete within 400 ms' });
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(ms).toBeLessThan(3_000);
    expect(await serverSawClose('/stall')).toBe(true);
  });

  it('gives up on a trickle that would defeat an idle timer', async () => {
    const { result, ms } = await timed(fetchPage(`${server.origin}/trickle`, options));
    expect(result.outcome).toBe('timeout');
    expect(ms).toBeLessThan(3_000);
    expect(await serverSawClose('/trickle')).toBe(true);
  });

  it('gives up on a server that never sends headers (status 0)', async () => {
    const { result, ms } = await timed(fetchPage(`${server.origin}/stall-headers`, options));
    expect(result).toMatchObject({ outcome: 'timeout', status: 0 });
    expect(ms).toBeLessThan(3_000);
  });

  it('applies the connect timeout to a TLS handshake that never completes', async () => {
    const { result, ms } = await timed(
      fetchPage(`https://${server.silentHost}/`, { ...options, connectTimeoutMs: 200, responseTimeoutMs: 10_000 }),
    );
    expect(result).toMatchObject({ outcome: 'timeout', status: 0, error: 'connect timed out', retryable: true });
    expect(ms).toBeLessThan(5_000);
  });
});

describe('fetchPage: byte caps', () => {
  it('skips a streamed 20 MB page after reading about maxBytes, and closes the connection', async () => {
    const { result, ms } = await timed(fetchPage(`${server.origin}/huge`, { ...options, responseTimeoutMs: 10_000 }));
    expect(result).toMatchObject({ outcome: 'too-large', status: 200 });
    expect(result.html).toBeUndefined();
    // Read stops at the cap, give or take one network chunk (the wire count may trip first).
    expect(result.bytes).toBeGreaterThan(options.maxBytes - 128 * 1024);
    expect(result.bytes).toBeLessThan(options.maxBytes + 128 * 1024);
    // No content coding, so the wire count trips the cap: the chunk that passes it is counted on
    // the wire and never held.
    expect(result.wireBytes).toBeGreaterThan(options.maxBytes);
    expect(result.bytes).toBeLessThanOrEqual(options.maxBytes);
    expect(ms).toBeLessThan(3_000);
    expect(await serverSawClose('/huge')).toBe(true);
  });

  it('stops at the default 5 MiB cap too', async () => {
    const result = await fetchPage(`${server.origin}/huge`, { ...DEFAULT_FETCH_OPTIONS, responseTimeoutMs: 10_000 });
    expect(result.outcome).toBe('too-large');
    expect(result.bytes).toBeLessThan(DEFAULT_FETCH_OPTIONS.maxBytes + 128 * 1024);
  });

  it('skips a page whose Content-Length is over the cap without reading it', async () => {
    const result = await fetchPage(`${server.origin}/huge-declared`, options);
    expect(result).toMatchObject({ outcome: 'too-large', bytes: 0 });
    expect(result.error).toContain('Content-Length 20000000');
  });

  it.each(['/gzip-bomb', '/br-bomb'])('caps the decoded bytes of %s, not just the wire bytes', async (path) => {
    const { result, ms } = await timed(fetchPage(`${server.origin}${path}`, { ...options, responseTimeoutMs: 10_000 }));
    expect(result.outcome).toBe('too-large');
    expect(result.wireBytes).toBeLessThan(options.maxBytes);
    expect(result.bytes).toBeGreaterThan(options.maxBytes);
    expect(result.bytes).toBeLessThan(options.maxBytes + 8 * 1024 * 1024);
    expect(ms).toBeLessThan(5_000);
  });

  it('caps the wire bytes of a compressed stream that never yields output', async () => {
    const { result, ms } = await timed(fetchPage(`${server.origin}/gzip-flood`, { ...options, responseTimeoutMs: 10_000 }));
    expect(result).toMatchObject({ outcome: 'too-large', bytes: 0 });
    expect(result.wireBytes).toBeLessThan(options.maxBytes + 128 * 1024);
    expect(ms).toBeLessThan(3_000);
    expect(await serverSawClose('/gzip-flood')).toBe(true);
  });

  it('reads a page just under the cap in full', async () => {
    const page = await fetchPage(`${server.origin}/site/a`, { ...options, maxBytes: 4096 });
    expect(page.outcome).toBe('ok');
  });
});

describe('fetchPage: HTTP errors and broken connections', () => {
  it.each([
    [404, false],
    [410, false],
    [500, true],
    [503, true],
    [429, true],
  ])('HTTP %i → http-error, retryable %s', async (status, retryable) => {
    const page = await fetchPage(`${server.origin}/status/${status}`, options);
    expect(page).toMatchObject({ outcome: 'http-error', status, retryable, error: `HTTP ${status}` });
    expect(page.html).toBeUndefined();
  });

  it('reports a connection reset before any response as a retryable network error with status 0', async () => {
    const page = await fetchPage(`${server.origin}/reset`, options);
    expect(page).toMatchObject({ outcome: 'network-error', status: 0, retryable: true });
    expect(page.error).toMatch(/closed|reset/);
  });

  it('reports a connection cut mid-body with the status that had arrived', async () => {
    const page = await fetchPage(`${server.origin}/reset-mid-body`, { ...options, responseTimeoutMs: 5_000 });
    expect(page).toMatchObject({ outcome: 'network-error', status: 200, retryable: true });
  });

  it('reports a refused connection', async () => {
    const page = await fetchPage(`${server.refusedOrigin}/`, options);
    expect(page).toMatchObject({ outcome: 'network-error', status: 0, error: 'connection refused', retryable: true });
  });
});

describe('fetchPage: the caller stopping the crawl', () => {
  it('rejects with the signal reason (not an outcome) and frees the socket', async () => {
    const controller = new AbortController();
    const stop = new Error('crawl stopped');
    setTimeout(() => controller.abort(stop), 100);
    const start = performance.now();
    await expect(fetchPage(`${server.origin}/stall?abort=1`, { ...options, responseTimeoutMs: 10_000, signal: controller.signal })).rejects.toBe(stop);
    expect(performance.now() - start).toBeLessThan(3_000);
    expect(await serverSawClose('/stall?abort=1')).toBe(true);
  });

  it('does not send a request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    const before = server.hits('/site/a');
    await expect(fetchPage(`${server.origin}/site/a?pre`, { ...options, signal: controller.signal })).rejects.toThrow('already stopped');
    expect(server.hits('/site/a')).toBe(before);
  });
});
