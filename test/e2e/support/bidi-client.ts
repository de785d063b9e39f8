/**
 * A small WebDriver BiDi client: just what the Firefox end-to-end test needs to drive a stock
 * Firefox, which speaks BiDi natively (Playwright cannot drive it without its patched build).
 *
 *   session.new, session.subscribe, browsingContext.create / navigate / close, script.evaluate
 *   and script.callFunction (results passed back as JSON text), webExtension.install, and the
 *   `log.entryAdded` events, kept for the test to print when it fails.
 *
 * Node 20 has no global WebSocket; undici's (a dependency already) is the standard one.
 * Spec: https://w3c.github.io/webdriver-bidi/
 */
import { WebSocket } from 'undici';

export class BidiError extends Error {
  constructor(
    message: string,
    readonly method: string,
    readonly error?: string,
  ) {
    super(message);
    this.name = 'BidiError';
  }
}

/** One `log.entryAdded` event, flattened. */
export interface LogEntry {
  level: string;
  text: string;
  /** 'console' or 'javascript' (an uncaught error). */
  type: string;
  /** The browsing context, when the entry came from a window. */
  context?: string;
  /** The URL of the top stack frame, when there is one. */
  url?: string;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type EventHandler = (params: Record<string, unknown>) => void;

interface BidiEvaluateResult {
  type: 'success' | 'exception';
  result?: { type: string; value?: unknown };
  exceptionDetails?: { text?: string; stackTrace?: { callFrames?: { url: string; lineNumber: number; functionName: string }[] } };
}

export class BidiClient {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #handlers = new Map<string, EventHandler[]>();
  #nextId = 1;
  #closed: Error | null = null;
  /** Every console message and uncaught error the session has seen, oldest first. */
  readonly log: LogEntry[] = [];

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => this.#receive(String(event.data)));
    socket.addEventListener('close', () => this.#fail(new Error('the BiDi connection closed')));
    this.on('log.entryAdded', (params) => this.log.push(flattenLogEntry(params)));
  }

  /** Opens the socket (`ws://127.0.0.1:<port>/session`); `session.new` is a separate call. */
  static connect(url: string, timeoutMs = 15_000): Promise<BidiClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`no BiDi connection to ${url} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(new BidiClient(socket));
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`the BiDi connection to ${url} failed`));
      });
    });
  }

  /** Sends one command; resolves to its result, rejects with the error the browser gave. */
  send<T = Record<string, unknown>>(method: string, params: object = {}, timeoutMs = 60_000): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new BidiError(`${method}: no answer within ${timeoutMs} ms`, method));
      }, timeoutMs);
      this.#pending.set(id, {
        method,
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on(event: string, handler: EventHandler): void {
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler]);
  }

  /** `session.new` with no special capabilities, then subscribes to the console log. */
  async startSession(): Promise<void> {
    await this.send('session.new', { capabilities: {} });
    await this.send('session.subscribe', { events: ['log.entryAdded'] });
  }

  /** A new tab; returns its browsing context id. */
  async newTab(): Promise<string> {
    const { context } = await this.send<{ context: string }>('browsingContext.create', { type: 'tab' });
    return context;
  }

  /** Navigates and waits for the load event. */
  async navigate(context: string, url: string): Promise<void> {
    await this.send('browsingContext.navigate', { context, url, wait: 'complete' });
  }

  async reload(context: string): Promise<void> {
    await this.send('browsingContext.reload', { context, wait: 'complete' });
  }

  async closeTab(context: string): Promise<void> {
    await this.send('browsingContext.close', { context });
  }

  async activate(context: string): Promise<void> {
    await this.send('browsingContext.activate', { context });
  }

  /**
   * Calls `fn(...args)` in the page's own realm (an extension page sees `browser`), awaiting a
   * returned promise. Arguments and the result cross as JSON text, so both must be JSON data.
   */
  async call<R, A extends unknown[] = []>(context: string, fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
    const reply = await this.send<BidiEvaluateResult>('script.callFunction', {
      // esbuild (tsx, Vitest) may wrap nested functions in its `__name` helper, absent in the page.
      functionDeclaration: `async (argsJson) => { const __name = (f) => f; return JSON.stringify(await (${fn.toString()})(...JSON.parse(argsJson))); }`,
      arguments: [{ type: 'string', value: JSON.stringify(args) }],
      target: { context },
      awaitPromise: true,
      resultOwnership: 'none',
    });
    if (reply.type === 'exception') {
      const frame = reply.exceptionDetails?.stackTrace?.callFrames?.[0];
      const where = frame ? ` (at ${frame.functionName || '<anonymous>'} ${frame.url}:${frame.lineNumber})` : '';
      throw new BidiError(`script.callFunction threw: ${reply.exceptionDetails?.text ?? 'unknown error'}${where}`, 'script.callFunction');
    }
    const value = reply.result?.type === 'string' ? reply.result.value : undefined;
    return (typeof value === 'string' ? JSON.parse(value) : undefined) as R;
  }

  /** Installs an unpacked extension directory as a temporary add-on; returns its id. */
  async installExtension(path: string): Promise<string> {
    const { extension } = await this.send<{ extension: string }>('webExtension.install', { extensionData: { type: 'path', path } });
    return extension;
  }

  /** Ends the session and closes the socket (the browser keeps running). */
  async close(): Promise<void> {
    if (!this.#closed) await this.send('session.end', {}, 5_000).catch(() => undefined);
    this.#socket.close();
  }

  #receive(text: string): void {
    let message: { id?: number; type?: string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: string; message?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.type === 'event' && message.method) {
      for (const handler of this.#handlers.get(message.method) ?? []) handler(message.params ?? {});
      return;
    }
    if (message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.type === 'error') pending.reject(new BidiError(`${pending.method}: ${message.error}: ${message.message ?? ''}`, pending.method, message.error));
    else pending.resolve(message.result);
  }

  #fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

function flattenLogEntry(params: Record<string, unknown>): LogEntry {
  const entry = params as {
    level?: string;
    text?: string | null;
    type?: string;
    source?: { context?: string };
    stackTrace?: { callFrames?: { url?: string }[] };
  };
  return {
    level: entry.level ?? 'info',
    text: entry.text ?? '',
    type: entry.type ?? 'console',
    ...(entry.source?.context ? { context: entry.source.context } : {}),
    ...(entry.stackTrace?.callFrames?.[0]?.url ? { url: entry.stackTrace.callFrames[0].url } : {}),
  };
}
