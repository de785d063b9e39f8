/** Type-level helpers over a request union `{ type: … }` and its `…Replies` map. */

/** The typed request helper's shape: a request of type K gets the reply of type K. */
export type ReplyOf<
  Req extends { type: string },
  Replies,
  K extends Req['type'],
> = K extends keyof Replies ? Replies[K] : never;

/** The request of type K out of a union. */
export type RequestOf<Req extends { type: string }, K extends Req['type']> = Extract<Req, { type: K }>;

/** The request types of `All` that a list of types leaves out (`never` when it names them all). */
export type Unlisted<All extends string, Listed extends readonly string[]> = Exclude<All, Listed[number]>;
