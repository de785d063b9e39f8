/**
 * Links as a walk finds them → 'page/links' messages (page-session.ts): the first message of
 * up to `firstSize` links, then messages of `size`, at most `inFlight` waiting for their
 * verdicts at once. Only full messages go while links still come; `flush` sends what waits
 * now, and `end` sends the rest.
 *
 * When the first message is the page's first (`firstIsPages`), the others wait for its reply:
 * it carries the title, and the background records the page with it.
 *
 * A message that fails stops the sending, and `drained` rejects with its error.
 */
export interface BatchSenderOptions<T> {
  send: (batch: T[], first: boolean) => Promise<void>;
  /** Links in the first message. */
  firstSize: number;
  /** Links in each later message. */
  size: number;
  /** Messages waiting for their verdicts at once. */
  inFlight: number;
  /** The first message is the page's first: the later ones wait for its reply. */
  firstIsPages: boolean;
  /** False once a refresh or clear overtook the run: nothing more goes. */
  current: () => boolean;
}

export class BatchSender<T> {
  readonly #options: BatchSenderOptions<T>;
  readonly #pending: T[] = [];
  #messages = 0;
  #inFlight = 0;
  /** The first message's reply came (or the first message is not the page's). */
  #open: boolean;
  #ended = false;
  /** Send what waits even below a full message, as soon as a request is free. */
  #eager = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(options: BatchSenderOptions<T>) {
    this.#options = options;
    this.#open = !options.firstIsPages;
  }

  /** Something failed: the caller can stop producing. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Queues `items`; full messages go as requests are free. */
  add(items: readonly T[]): void {
    for (const item of items) this.#pending.push(item);
    this.#pump();
  }

  /** Sends what waits now, whatever its size (the page's first links). */
  flush(): void {
    this.#eager = true;
    this.#pump();
    this.#eager = false;
  }

  /** No more will come: what waits goes, whatever its size. */
  end(): void {
    this.#ended = true;
    this.#pump();
  }

  /** Resolves once nothing waits or is in flight (or the run is overtaken); rejects with a failed message's error. */
  async drained(): Promise<void> {
    while (this.#failure === undefined && this.#options.current() && (this.#inFlight > 0 || this.#pending.length > 0)) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  #pump(): void {
    const { send, firstSize, size, inFlight, current } = this.#options;
    while (this.#failure === undefined && current() && this.#pending.length > 0 && this.#inFlight < inFlight) {
      const first = this.#messages === 0;
      if (!first && !this.#open) return;
      const limit = first ? firstSize : size;
      if (!this.#ended && !this.#eager && this.#pending.length < limit) return;
      const batch = this.#pending.splice(0, limit);
      this.#messages++;
      this.#inFlight++;
      send(batch, first).then(
        () => {
          this.#inFlight--;
          if (first) this.#open = true;
          this.#pump();
          this.#wake?.();
        },
        (error: unknown) => {
          this.#inFlight--;
          this.#failure ??= { error };
          this.#wake?.();
        },
      );
    }
  }
}
