// perfduel's HTML pages: helpers shared by the run page and the trend dashboard.
// The page's data is the JSON in #perfduel-data (written by perfduel, report/html_*.cpp).
'use strict';

const PD = {};

PD.data = JSON.parse(document.getElementById('perfduel-data').textContent);

// Paul Tol's bright scheme, as the SVG plots use it (report/palette.hpp).
PD.colours = {};  // perfduel: the palette, written here by report/html_page.cpp

// An element: PD.el('td', {class: 'x', title: 't'}, 'text', child, ...).
PD.el = function (tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
};

// "+3.10 %" for 3.1 (a value already in percent).
PD.percent = function (value, decimals = 2) {
  if (value === null || value === undefined || !isFinite(value)) return 'n/a';
  const text = value.toFixed(decimals);
  return (value > 0 && Number(text) !== 0 ? '+' : '') + text + ' %';
};

// A number to about six significant digits, without trailing zeros.
PD.number = function (value) {
  if (value === null || value === undefined || !isFinite(value)) return 'n/a';
  return String(Number(value.toPrecision(6)));
};

// The class of a verdict word: regression, improvement, no-change, or undecided for the rest.
PD.verdictKind = function (verdict) {
  if (/^regression/.test(verdict)) return 'regression';
  if (/^(improvement|progression)/.test(verdict)) return 'improvement';
  if (/^(no-change|normal)/.test(verdict)) return 'no-change';
  if (/^(error|interrupted)/.test(verdict)) return 'failed';
  return 'undecided';
};

PD.colourOf = function (verdict) {
  const kind = PD.verdictKind(verdict);
  return PD.colours[kind] || (kind === 'failed' ? PD.colours.regression : PD.colours.undecided);
};

PD.badge = function (verdict) {
  return PD.el('span', {class: 'badge ' + PD.verdictKind(verdict)}, verdict);
};

// Charts are drawn when they come near the viewport, once: a page of 200 series draws the few
// a reader looks at, not all of them at load.
PD.drawn = 0;
PD.lazyObserver = new IntersectionObserver(function (entries) {
  for (const entry of entries) {
    if (entry.isIntersecting && entry.target.perfduelDraw) {
      const draw = entry.target.perfduelDraw;
      entry.target.perfduelDraw = null;
      PD.lazyObserver.unobserve(entry.target);
      draw();
      PD.drawn += 1;
      document.body.dataset.charts = String(PD.drawn);
    }
  }
}, {rootMargin: '300px 0px'});

PD.drawWhenVisible = function (element, draw) {
  element.perfduelDraw = draw;
  PD.lazyObserver.observe(element);
};

// Marks a chart's container with what it drew, for the browser test and for a reader's
// devtools: the points of each dataset after decimation.
PD.markDrawn = function (container, chart) {
  let points = 0;
  chart.data.datasets.forEach(function (dataset, i) {
    if (dataset.perfduelCounted) points += chart.getDatasetMeta(i).data.length;
  });
  container.dataset.points = String(points);
  container.dataset.drawnAtMs = String(Math.round(performance.now()));
  container.classList.add('drawn');
};

// Chart.js defaults for every chart: no animation (a page of many charts stays responsive),
// numbers read as given (parsing: false, {x, y} objects sorted by x) and thinned to about one
// point per pixel when a series is longer than that (the decimation plugin, min-max).
PD.chartDefaults = function () {
  Chart.defaults.animation = false;
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", sans-serif';
  Chart.defaults.font.size = 11;
  Chart.defaults.color = '#444';
  Chart.defaults.maintainAspectRatio = false;
};

// A linear x axis of whole numbers (rounds, runs): no tick at the half-round padding.
PD.wholeTicks = function (axis) {
  axis.ticks = axis.ticks.filter(function (t) { return Number.isInteger(t.value); });
};

// Legend entries: the lower edge of a band (perfduelTwin) has none, and a side's marker is
// filled with its colour even when its first point is a hollow warm-up run.
PD.legendLabels = function (chart) {
  const items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
  return items.filter(function (item) {
    return !chart.data.datasets[item.datasetIndex].perfduelTwin;
  }).map(function (item) {
    const dataset = chart.data.datasets[item.datasetIndex];
    if (dataset.perfduelCounted) item.fillStyle = dataset.borderColor;
    return item;
  });
};

// The page is drawn: for the browser test, and the time it took (milliseconds since navigation
// started: reading the file, parsing the data, building the tables, the first charts).
PD.ready = function () {
  // A link to one part of the page (#series-12, #gate-2): it exists now that the script built it.
  if (location.hash) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
  document.body.dataset.state = 'ready';
  document.body.dataset.readyMs = String(Math.round(performance.now()));
};

// A select of `values` (with "all" first) that calls `onchange(value)`; '' means all.
PD.select = function (label, values, onchange, describe) {
  const select = PD.el('select', {'aria-label': label, 'data-filter': label},
                       PD.el('option', {value: ''}, 'all'),
                       values.map(function (v) {
                         return PD.el('option', {value: v}, describe ? describe(v) : v);
                       }));
  select.addEventListener('change', function () { onchange(select.value); });
  return PD.el('label', {class: 'filter'}, label + ' ', select);
};
