// The dashboard's harvest chart (an SVG drawn by hand, no library under the page's CSP). It
// reads `pages`, `isFetchedPage`, `notFetchedText`, `percent`, `$` and `SVG` of dashboard.js,
// loaded before it; dashboard.js calls `drawChart` once the page has loaded.
'use strict';

// The running harvest rate after each page: relevant pages so far / judged pages so far. The
// relevance threshold is the crawl's; pages carry their relevance, and the server's count is the
// authority, so the chart uses 0.5 only to draw (the service's judge gives 1 or 0, or P(+)).
function drawChart() {
  const svg = $('chart');
  svg.replaceChildren();
  const W = 640, H = 220, left = 40, right = 10, top = 10, bottom = 30;
  const points = [];
  let judged = 0, relevant = 0;
  const fetchedPages = pages.filter(isFetchedPage);
  fetchedPages.forEach((page, i) => {
    if (page.relevance === undefined) return;
    judged++;
    if (page.relevance >= 0.5) relevant++;
    points.push([i + 1, relevant / judged]);
  });
  const n = Math.max(fetchedPages.length, 1);
  const x = (v) => left + ((W - left - right) * v) / n;
  const y = (v) => top + (H - top - bottom) * (1 - v);
  const line = (x1, y1, x2, y2, stroke) => {
    const node = document.createElementNS(SVG, 'line');
    for (const [k, v] of Object.entries({ x1, y1, x2, y2, stroke })) node.setAttribute(k, String(v));
    svg.append(node);
  };
  const text = (tx, ty, value, anchor = 'end') => {
    const node = document.createElementNS(SVG, 'text');
    node.setAttribute('x', String(tx));
    node.setAttribute('y', String(ty));
    node.setAttribute('text-anchor', anchor);
    node.textContent = value;
    svg.append(node);
  };
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    line(left, y(v), W - right, y(v), '#e3e6eb');
    text(left - 4, y(v) + 4, `${v * 100}%`);
  }
  line(left, y(0), W - right, y(0), '#99a');
  const others = pages.length - fetchedPages.length;
  text(W - right, H - 8, `${fetchedPages.length} pages fetched${others > 0 ? ` (+${others} not fetched: ${notFetchedText()})` : ''}`);
  text(left, H - 8, '0', 'start');
  if (points.length === 0) {
    $('chart-note').textContent = 'No page judged yet (a crawl without a model has no harvest judge).';
    return;
  }
  const path = document.createElementNS(SVG, 'polyline');
  path.setAttribute('points', points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' '));
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', '#2a6df4');
  path.setAttribute('stroke-width', '2');
  svg.append(path);
  const last = points[points.length - 1];
  $('chart-note').textContent = `Harvest ${percent(last[1])} over ${judged} judged pages.`;
}
