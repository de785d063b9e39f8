/**
 * The companion client against a recording `fetch` (no network): what each request looks like,
 * and the one problem and sentence each failure becomes.
 */
import { describe, expect, it } from 'vitest';
import { CompanionError, createCompanionClient, type CompanionProblem, type FetchLike } from '../../../extension/companion-client/client.ts';
import { crawlInfo } from './fake-service.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

interface Call {
  url: string;
  init: RequestInit;
}

function recording(answer: (url: string, init: RequestInit) => Response | Promise<Response>): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init = {}) => {
      calls.push({ url, init });
      return answer(url, init);
    },
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function problemOf(promise: Promise<unknown>): Promise<[CompanionProblem, string, string | undefined]> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CompanionError);
    const e = error as CompanionError;
    return [e.problem, e.message, e.detail];
  }
  throw new Error('expected a CompanionError');
}

describe('companion client', () => {
  it('calls 127.0.0.1 on the port with the Bearer token, no cookies, no redirects', async () => {
    const { fetch, calls } = recording(() => json(201, crawlInfo()));
    const client = createCompanionClient({ port: 7999, token: TOKEN, fetch });
    await client.startCrawl({ seeds: ['https://news.example.com/'], maxPages: 200 });
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [Call];
    expect(url).toBe('http://127.0.0.1:7999/api/crawls');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ seeds: ['https://news.example.com/'], maxPages: 200 });
    expect(init).toMatchObject({ credentials: 'omit', redirect: 'error', cache: 'no-store' });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('uses the default port 7431 and encodes crawl ids in paths', async () => {
    const { fetch, calls } = recording(() => json(200, crawlInfo()));
    await createCompanionClient({ token: TOKEN, fetch }).crawl('a/b');
    expect(calls[0]!.url).toBe('http://127.0.0.1:7431/api/crawls/a%2Fb');
  });

  it('asks nothing when not paired', async () => {
    const { fetch, calls } = recording(() => json(200, {}));
    const [problem, message] = await problemOf(createCompanionClient({ token: '  ', fetch }).status());
    expect(problem).toBe('not-paired');
    expect(message).toMatch(/not paired .* Options → Companion/);
    expect(calls).toEqual([]);
  });

  it('says the companion is not running, and how to start it, when nothing answers', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await problemOf(createCompanionClient({ port: 7431, token: TOKEN, fetch }).status())).toEqual([
      'not-running',
      'The LinkScent companion is not running on port 7431. Start it with: npm start (or npx linkscent serve)',
      undefined,
    ]);
  });

  it('names each refusal for what the user must do', async () => {
    const cases: [number, unknown, CompanionProblem, RegExp][] = [
      [401, { error: 'wrong pairing token' }, 'token-refused', /refused the pairing token: paste the token/],
      [403, { error: 'Origin chrome-extension://x is refused: the service is paired with another extension' }, 'origin-refused', /--reset-pairing/],
      [404, { error: 'no crawl "c9"' }, 'not-found', /does not know that \(no crawl "c9"\)/],
      [400, { error: 'seeds must be a list of at least one absolute http(s) URL' }, 'request-refused', /refused the request \(HTTP 400\) \(seeds must/],
      [409, { error: 'crawl c1 was started without a model' }, 'request-refused', /HTTP 409/],
      [500, { error: 'internal error: disk full' }, 'service-error', /failed \(HTTP 500\) \(internal error: disk full\)/],
    ];
    for (const [status, body, expected, message] of cases) {
      const { fetch } = recording(() => json(status, body));
      const [problem, text, detail] = await problemOf(createCompanionClient({ token: TOKEN, fetch }).crawl('c9'));
      expect([status, problem]).toEqual([status, expected]);
      expect(text).toMatch(message);
      expect(detail).toBe((body as { error: string }).error);
    }
  });

  it('recognises something that is not the companion', async () => {
    for (const response of [
      () => new Response('<html>router login</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      () => json(200, { hello: 'world' }),
      () => json(200, crawlInfo({ dashboardPath: '//evil.example/steal' })),
    ]) {
      const { fetch } = recording(response);
      const [problem, message] = await problemOf(createCompanionClient({ port: 8080, token: TOKEN, fetch }).crawl('c1'));
      expect(problem).toBe('not-companion');
      expect(message).toMatch(/Something answers on 127\.0\.0\.1:8080/);
    }
  });

  it('gives up after its timeout', async () => {
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    const [problem, message] = await problemOf(createCompanionClient({ token: TOKEN, fetch, timeoutMs: 20 }).status());
    expect(problem).toBe('timeout');
    expect(message).toMatch(/did not answer within 20 ms/);
  });

  it('builds the dashboard link with the token, for this service only', async () => {
    const client = createCompanionClient({ port: 7431, token: TOKEN, fetch: async () => json(200, {}) });
    expect(client.dashboardUrl({ dashboardPath: '/dashboard#crawl=c1' })).toBe(`http://127.0.0.1:7431/dashboard?token=${TOKEN}#crawl=c1`);
    expect(() => client.dashboardUrl({ dashboardPath: '//evil.example/x' })).toThrow(CompanionError);
  });

  it('returns the labels file as text and checks the other answers', async () => {
    const { fetch } = recording((url) => {
      if (url.endsWith('/labels')) return new Response('{"formatName":"dexie"}', { status: 200 });
      if (url.endsWith('/api/status')) return json(200, { version: '0.1.0', port: 7431, crawls: [crawlInfo()] });
      if (url.includes('/pages')) return json(200, { total: 1, pages: [{ url: 'https://news.example.com/' }] });
      return json(201, { modelId: '0123456789abcdef', topics: [{ id: 'finance', name: '财经', examples: 12 }] });
    });
    const client = createCompanionClient({ token: TOKEN, fetch });
    expect(await client.labels('c1')).toBe('{"formatName":"dexie"}');
    expect((await client.status()).crawls).toHaveLength(1);
    expect(await client.pages('c1', 0, 10)).toEqual({ total: 1, pages: [{ url: 'https://news.example.com/' }] });
    expect((await client.uploadModel('{}')).modelId).toBe('0123456789abcdef');
  });
});
