// The LinkScent dashboard: a plain client of the service's API (docs/service-api.md). The token
// comes from this page's address (/dashboard?token=T) and goes in the Authorization header of
// every call, as for any client; the crawl shown is the one in the fragment (#crawl=<id>).
// Progress comes from the event stream, read through fetch() because EventSource cannot send
// a header. No framework, no inline script: the page's CSP allows only files from the service.
'use strict';

const token = new URLSearchParams(location.search).get('token') ?? '';
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

let selected = null; // the crawl id shown in detail
let stream = null; // AbortController of the open event stream
let pages = []; // the selected crawl's pages fetched so far, in fetch order
let pagesLoading = false;

async function api(path, init = {}) {
  const response = await fetch(path, { ...init, headers: { ...(init.headers ?? {}), authorization: `Bearer ${token}` } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  }
  return response;
}

function showMessage(text) {
  $('message').textContent = text;
  $('message').hidden = !text;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

const percent = (x) => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)}%`);

async function refreshList() {
  try {
    const crawls = await (await api('/api/crawls')).json();
    const body = $('crawls').tBodies[0];
    body.replaceChildren();
    for (const crawl of crawls) {
      const row = el('tr', undefined, `crawl${crawl.id === selected ? ' selected' : ''}`);
      row.append(el('td', crawl.id));
      const state = el('td');
      state.append(el('span', crawl.state, `state ${crawl.state}`));
      row.append(state, el('td', crawl.seeds[0] ?? '', 'url'), el('td', crawl.topic ? `${crawl.strategy} · ${crawl.topic.name}` : crawl.strategy));
      row.append(el('td', `${crawl.progress.fetched}/${crawl.maxPages}`), el('td', percent(crawl.progress.harvest)));
      const open = el('td');
      open.append(el('a', 'show'));
      open.firstChild.href = `#crawl=${crawl.id}`;
      row.append(open);
      row.addEventListener('click', () => (location.hash = `crawl=${crawl.id}`));
      body.append(row);
    }
    $('no-crawls').hidden = crawls.length > 0;
    if (selected === null && crawls.length > 0 && !location.hash) location.hash = `crawl=${crawls[0].id}`;
    showMessage('');
  } catch (error) {
    showMessage(`Cannot list crawls: ${error.message}`);
  }
}

// Rows of pages.jsonl that are no fetched page (issue 12, "counts agree"): robots.txt said no,
// or the host never answered. The crawler's `fetched` counts every row but robots-denied ones,
// so the header takes the unreachable rows out again; header, chart and table then count the
// same pages, and the table shows the other rows as what they are.
const UNREACHABLE = new Set(['network-error', 'timeout', 'error']);
// robots-denied and address-denied rows were never requested (the crawler refused them itself: a
// loopback or private address the crawl may not reach), and `fetched` leaves them out too.
const DENIED = new Set(['robots-denied', 'address-denied']);
const isDenied = (page) => DENIED.has(page.outcome);
const isUnreachable = (page) => UNREACHABLE.has(page.outcome) && !page.status;
const isFetchedPage = (page) => !isDenied(page) && !isUnreachable(page);

function outcomeText(page) {
  if (isDenied(page)) return `${page.outcome}, not fetched`;
  if (isUnreachable(page)) return `unreachable (${page.outcome}), not fetched`;
  return page.status || page.outcome;
}

function notFetchedText() {
  const denied = pages.filter((page) => page.outcome === 'robots-denied').length;
  const addresses = pages.filter((page) => page.outcome === 'address-denied').length;
  const unreachable = pages.filter(isUnreachable).length;
  return `${denied} robots-denied, ${unreachable} unreachable${addresses > 0 ? `, ${addresses} address-denied` : ''}`;
}

let shownInfo = null; // the last crawl info shown, shown again once its rows are loaded

function showInfo(info) {
  shownInfo = info;
  $('detail-id').textContent = info.id;
  $('detail-state').textContent = info.state;
  $('detail-state').className = `state ${info.state}`;
  $('detail-error').textContent = info.error ?? '';
  $('detail-error').hidden = !info.error;
  const p = info.progress;
  const figures = [
    ['pages', `${p.fetched - pages.filter(isUnreachable).length} / ${p.maxPages}`],
    ['not fetched', notFetchedText()],
    ['queued', p.queued],
    ['errors', p.errors],
    ['harvest', p.harvest === null ? '–' : `${percent(p.harvest)} (${p.relevant}/${p.judged})`],
    ['pages/s', p.pagesPerSecond.toFixed(1)],
    ['elapsed', `${(p.elapsedMs / 1000).toFixed(1)} s`],
    ['strategy', info.topic ? `${info.strategy} · ${info.topic.name}` : info.strategy],
    ['seeds', info.seeds.join(' ')],
  ];
  // One <div> per name-value pair (allowed inside <dl>), so the grid keeps each pair together.
  $('figures').replaceChildren(
    ...figures.map(([name, value]) => {
      const pair = el('div');
      pair.append(el('dt', name), el('dd', value));
      return pair;
    }),
  );
  $('pause').disabled = info.state !== 'running';
  $('resume').disabled = info.state !== 'paused';
  $('stop').disabled = info.state !== 'running' && info.state !== 'paused';
  if (p.fetched > pages.length) loadPages();
}

async function loadPages() {
  if (pagesLoading || selected === null) return;
  pagesLoading = true;
  const id = selected;
  try {
    for (;;) {
      const { total, pages: batch } = await (await api(`/api/crawls/${id}/pages?offset=${pages.length}&limit=500`)).json();
      if (id !== selected) return;
      pages.push(...batch);
      appendPageRows(batch, pages.length - batch.length);
      if (batch.length === 0 || pages.length >= total) break;
    }
    drawChart();
    // The header's page count leaves the unreachable rows out: count them now they are here.
    if (shownInfo !== null && shownInfo.id === id) showInfo(shownInfo);
  } catch (error) {
    showMessage(`Cannot load pages: ${error.message}`);
  } finally {
    pagesLoading = false;
  }
}

function appendPageRows(batch, start) {
  const body = $('pages').tBodies[0];
  batch.forEach((page, i) => {
    const row = el('tr');
    const url = el('td', undefined, 'url');
    const link = el('a', page.url);
    link.href = page.url;
    link.rel = 'noreferrer noopener';
    link.target = '_blank';
    url.append(link);
    const relevance = page.relevance === undefined ? '–' : page.relevance.toFixed(2);
    const relevanceClass = page.relevance === undefined ? '' : page.relevance >= 0.5 ? 'relevant' : 'irrelevant';
    if (!isFetchedPage(page)) row.className = 'not-fetched';
    // The score alone says little where every kept link's value is 1 (the topic's patterns
    // match it): the rank at claim and the model's log-odds tell the rows apart.
    const rank = el('td', page.rank === undefined ? '–' : `#${page.rank}`);
    const odds = el('td', page.logOdds !== undefined ? `${page.logOdds >= 0 ? '+' : ''}${page.logOdds.toFixed(1)}` : page.parent === null ? 'seed' : page.score.toFixed(3));
    rank.title = odds.title = `score ${page.score}`;
    row.append(el('td', start + i + 1), url, el('td', outcomeText(page)), el('td', page.depth), rank, odds, el('td', relevance, relevanceClass));
    row.classList.add('page');
    row.addEventListener('click', (event) => {
      if (event.target instanceof HTMLAnchorElement) return; // the URL's own link opens the page
      showPageDetail(selected, page);
    });
    body.append(row);
  });
}

// Server-sent events over fetch: split the stream into blocks at blank lines, and each block
// into its `event:` and `data:` fields.
async function follow(id) {
  stream?.abort();
  const controller = new AbortController();
  stream = controller;
  try {
    const response = await api(`/api/crawls/${id}/events`, { signal: controller.signal });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message', data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (event === 'progress' && id === selected) showInfo(JSON.parse(data));
        if (event === 'end') refreshList();
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) showMessage(`Progress stream ended: ${error.message}`);
  }
}

function select() {
  const match = /crawl=([A-Za-z0-9_-]+)/.exec(location.hash);
  const id = match ? match[1] : null;
  if (id === selected) return;
  selected = id;
  pages = [];
  $('pages').tBodies[0].replaceChildren();
  $('page-detail').hidden = true;
  $('detail').hidden = id === null;
  if (id === null) return;
  drawChart();
  follow(id);
  loadPages();
  refreshList();
}

async function act(action) {
  if (selected === null) return;
  try {
    showInfo(await (await api(`/api/crawls/${selected}/${action}`, { method: 'POST' })).json());
    if (action === 'resume') follow(selected);
    refreshList();
  } catch (error) {
    showMessage(`Cannot ${action}: ${error.message}`);
  }
}

async function download() {
  if (selected === null) return;
  try {
    // A plain link cannot carry the Authorization header: fetch, then save the blob.
    const blob = await (await api(`/api/crawls/${selected}/pages.jsonl`)).blob();
    const link = el('a');
    link.href = URL.createObjectURL(blob);
    link.download = `linkscent-${selected}-pages.jsonl`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } catch (error) {
    showMessage(`Cannot download: ${error.message}`);
  }
}

document.addEventListener('DOMContentLoaded', async () => {
  for (const action of ['pause', 'resume', 'stop']) $(action).addEventListener('click', () => act(action));
  $('download').addEventListener('click', download);
  window.addEventListener('hashchange', select);
  try {
    const status = await (await api('/api/status')).json();
    $('service').textContent = `linkscent ${status.version} · port ${status.port}`;
  } catch (error) {
    showMessage(`The service refused: ${error.message}`);
  }
  await refreshList();
  select();
  setInterval(refreshList, 5000);
});
