// The dashboard's page detail (issue 13): a click on a fetched page's row shows why it came when
// it did (GET /api/crawls/:id/why: its best link, rank, score and, for an nb crawl, the score
// taken apart) and the text the crawl kept of it (GET /api/crawls/:id/text). It uses `api`, `el`
// and `$` of dashboard.js, loaded before it.
'use strict';

const fixed = (x, digits = 4) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));

function whyFigures(why) {
  const figures = [
    ['state', why.state === 'dropped' ? `dropped (${why.reason ?? ''})` : why.state],
    ['rank when claimed', why.rank === undefined ? '–' : `#${why.rank}`],
    ['score', `${fixed(why.score)} (${why.strategy})`],
    ['depth', why.depth],
  ];
  if (why.seed) figures.push(['link', 'a seed of the crawl']);
  if (why.redirectedFrom) figures.push(['reached by a redirect from', why.redirectedFrom]);
  if (why.link) {
    figures.push(['from page', why.link.parent], ['anchor', why.link.anchor || '(none)'], ['context before', why.link.before || '(none)'], ['context after', why.link.after || '(none)']);
  }
  if (why.hostPenalty) figures.push(['host budget', `−${why.hostPenalty}`]);
  const parts = why.parts;
  if (parts) {
    figures.push(['immediate value P(+)', `${fixed(parts.immediate)}${parts.byPattern ? ' (the topic’s URL patterns)' : ''}`], ['log-odds', parts.logOdds.toFixed(3)]);
    if (parts.future !== null) figures.push(['future value E[γ^d | d ≥ 1]', `${fixed(parts.future)} (γ ${parts.gamma})`]);
    figures.push(['value v', fixed(parts.value)], ['priority', `${fixed(parts.priority)}${parts.sentBack ? ' (sent to the back)' : ''}`]);
  } else {
    figures.push(['score parts', why.partsNote ?? '–']);
  }
  return figures;
}

async function showPageDetail(crawlId, page) {
  if (crawlId === null) return;
  const url = page.url;
  $('page-detail').hidden = false;
  $('page-detail-url').textContent = url;
  $('why').replaceChildren(el('div', 'loading…'));
  $('why-features').tBodies[0].replaceChildren();
  $('page-text').textContent = '';
  $('page-text-note').textContent = '';
  const query = `?url=${encodeURIComponent(url)}`;
  const [why, text] = await Promise.allSettled([
    api(`/api/crawls/${crawlId}/why${query}`).then((r) => r.json()),
    api(`/api/crawls/${crawlId}/text${query}`).then((r) => r.json()),
  ]);
  if ($('page-detail-url').textContent !== url) return; // another row was clicked meanwhile
  if (why.status === 'fulfilled') {
    $('why').replaceChildren(
      ...whyFigures(why.value).map(([name, value]) => {
        const pair = el('div');
        pair.append(el('dt', name), el('dd', value));
        return pair;
      }),
    );
    for (const { feature, weight } of why.value.parts?.top ?? []) {
      const row = el('tr');
      row.append(el('td', feature), el('td', `${weight >= 0 ? '+' : ''}${weight.toFixed(3)}`, weight >= 0 ? 'relevant' : 'irrelevant'));
      $('why-features').tBodies[0].append(row);
    }
  } else {
    $('why').replaceChildren(el('div', `Cannot explain: ${why.reason.message}`, 'error'));
  }
  if (text.status === 'fulfilled') {
    $('page-text-note').textContent = `${text.value.title}${text.value.truncated ? ' (cut at the crawl’s cap)' : ''}`;
    $('page-text').textContent = text.value.text;
  } else {
    $('page-text-note').textContent = text.reason.message;
  }
  $('page-detail').scrollIntoView({ block: 'nearest' });
}

document.addEventListener('DOMContentLoaded', () => {
  $('page-detail-close').addEventListener('click', () => ($('page-detail').hidden = true));
});
