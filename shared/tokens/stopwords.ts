/**
 * A small built-in stop-word list: the commonest Chinese and English function words.
 *
 * Optional. `createTokenizer` applies stop words only when they are passed in (default: none), so
 * a model's features never change because this list was edited; pass `STOPWORDS` explicitly,
 * and keep using the same list for a model's whole life. Han et al. 2010 (§3.2.1) segment their
 * text but do not say they remove stop words; a Naive Bayes over anchor words mostly learns that
 * function words are uninformative anyway, so removal is a memory and noise saving, not a must.
 *
 * Entries are already in `normalizeText` form (NFKC, lower case). The Chinese entries are jieba
 * tokens (`我们` is one token, so it is listed whole); none is a content word. Because text is
 * lower-cased first, `it` and `us` are left out: they would also remove `IT` and `US`, both
 * common in Chinese anchors (`IT频道`, `US股市`).
 */

const CHINESE = `
的 地 得 之 了 着 过 和 与 及 或 而 且 并 也 都 就 还 又 才 只 是 在 于 为 以 对 从 向 把 被 让 给 由
自 到 至 比 跟 同 这 那 此 其 所 者 乎 啊 吗 呢 吧 呀 哦 嗯 么 嘛 啦 呗 我 你 您 他 她 它 我们 你们
他们 她们 它们 咱们 自己 这个 那个 这些 那些 这里 那里 这样 那样 这么 那么 什么 怎么 怎样 为什么
哪 哪里 哪些 谁 一个 一些 一种 个 些 有 没有 没 不 不是 很 太 更 最 非常 已 已经 曾 曾经 将 会 能
可以 可能 应该 要 如果 因为 所以 但是 但 然而 虽然 即使 尽管 因此 于是 然后 而且 并且 或者 还是
以及 等 等等 之一 之后 之前 以后 以前 其中 其他 其它 另外 此外 关于 对于 通过 根据 按照 由于 随着
除了 当 时 时候 的话 似的 一样 就是 只是 还有 以上 以下 如此 各 每 该 本 某 即 则 却 便 又是
`;

const ENGLISH = `
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves also may might must shall via per etc vs
`;

/** Chinese and English function words, frozen, in `normalizeText` form, without duplicates. */
export const STOPWORDS: readonly string[] = Object.freeze([
  ...new Set(`${CHINESE} ${ENGLISH}`.split(/\s+/u).filter((word) => word !== '')),
]);
