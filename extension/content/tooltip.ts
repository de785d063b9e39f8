/**
 * The hover explanation: why a marked link is on topic (its score and the features behind it).
 *
 * One host element, created on first use and reused, holding a closed shadow root so the
 * page's CSS cannot restyle its contents and the page's scripts cannot read them. Contents are
 * built with `createElement` + `textContent` only: feature words come from pages, and a word
 * like `<img onerror=…>` must show as those characters. The look comes from `highlight.css`
 * (the manifest's content stylesheet) through the host's tag and `::part()`, so no `<style>`
 * element or style attribute is needed that a strict page CSP would block; only the position
 * is set, through the CSSOM (which CSP does not restrict), as `!important` to beat the
 * stylesheet's `all: initial !important` reset.
 */
import type { PageVerdict } from '../messages/page-links.ts';
import { percent, uiLocale, type Translate } from '../ui/i18n.ts';
import { featureLabel, formatWeight } from './feature-labels.ts';

export const TOOLTIP_TAG = 'linkscent-tip';
/** Features listed at most (the verdict may carry more). */
export const TOOLTIP_FEATURES = 6;

export class Tooltip {
  readonly #doc: Document;
  readonly #t: Translate;
  #host: HTMLElement | undefined;
  #content: HTMLElement | undefined;

  constructor(doc: Document, t: Translate) {
    this.#doc = doc;
    this.#t = t;
  }

  /** The host element once created (the mutation watcher ignores it). */
  get host(): HTMLElement | undefined {
    return this.#host;
  }

  /** The shadow contents, for tests (the shadow root itself is closed). */
  get content(): HTMLElement | undefined {
    return this.#content;
  }

  /** Shows the explanation of `verdict` next to `link`: its score and its features (`top`, once the page has them). */
  show(link: Element, verdict: PageVerdict): void {
    const { host, content } = this.#ensure();
    this.#fill(content, verdict);
    this.#place(host, link.getBoundingClientRect());
    host.setAttribute('data-open', '');
  }

  hide(): void {
    this.#host?.removeAttribute('data-open');
  }

  /** Removes the host from the page (the content script is being torn down). */
  destroy(): void {
    this.#host?.remove();
    this.#host = undefined;
    this.#content = undefined;
  }

  #ensure(): { host: HTMLElement; content: HTMLElement } {
    if (this.#host === undefined || this.#content === undefined || !this.#host.isConnected) {
      const host = this.#doc.createElement(TOOLTIP_TAG);
      host.setAttribute('role', 'tooltip');
      const root = host.attachShadow({ mode: 'closed' });
      const content = this.#doc.createElement('div');
      content.setAttribute('part', 'body');
      root.append(content);
      this.#doc.documentElement.append(host);
      this.#host = host;
      this.#content = content;
    }
    return { host: this.#host, content: this.#content };
  }

  #fill(content: HTMLElement, verdict: PageVerdict): void {
    const doc = this.#doc;
    const t = this.#t;
    const title = doc.createElement('div');
    title.setAttribute('part', 'score');
    title.textContent = t('tipScore', percent(verdict.p, uiLocale(t)));
    // The user's own word comes first: it is why the link is lit, whatever the model says.
    const heading: HTMLElement[] = [title];
    if (verdict.mark !== undefined || verdict.template) {
      const why = doc.createElement('div');
      why.setAttribute('part', 'why');
      why.textContent = verdict.mark !== undefined ? t(verdict.mark === 1 ? 'tipMarkedOn' : 'tipMarkedOff') : t('tipTemplate');
      heading.unshift(why);
    }
    const features = (verdict.top ?? []).slice(0, TOOLTIP_FEATURES);
    if (features.length === 0) {
      const none = doc.createElement('div');
      none.setAttribute('part', 'none');
      none.textContent = t('tipNoFeatures');
      content.replaceChildren(...heading, none);
      return;
    }
    const list = doc.createElement('ul');
    list.setAttribute('part', 'features');
    for (const { feature, weight } of features) {
      const item = doc.createElement('li');
      item.setAttribute('part', weight >= 0 ? 'feature for' : 'feature against');
      const amount = doc.createElement('span');
      amount.setAttribute('part', 'weight');
      amount.textContent = formatWeight(weight);
      const label = doc.createElement('span');
      label.setAttribute('part', 'label');
      label.textContent = featureLabel(feature, t);
      item.append(amount, label);
      list.append(item);
    }
    content.replaceChildren(...heading, list);
  }

  /** Below the link, or above it in the lower part of the viewport; kept inside horizontally. */
  #place(host: HTMLElement, rect: DOMRectReadOnly): void {
    const view = this.#doc.defaultView;
    const width = view?.innerWidth ?? 1024;
    const height = view?.innerHeight ?? 768;
    const left = Math.max(4, Math.min(rect.left, width - 324));
    host.style.setProperty('left', `${Math.round(left)}px`, 'important');
    if (rect.bottom > height * 0.6) {
      host.style.setProperty('top', 'auto', 'important');
      host.style.setProperty('bottom', `${Math.round(height - rect.top + 4)}px`, 'important');
    } else {
      host.style.setProperty('bottom', 'auto', 'important');
      host.style.setProperty('top', `${Math.round(rect.bottom + 4)}px`, 'important');
    }
  }
}
