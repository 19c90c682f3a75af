// The history dashboard (perfduel trend --html): every series with its trend groups, the
// regressions and progressions marked, filters for branch, machine and configuration.
// Data: report/html_trend.cpp.
'use strict';

(function () {
  const data = PD.data;
  const page = document.getElementById('page');
  PD.chartDefaults();

  // The run table: a series' runs are indices into it, delta-coded.
  const runTable = data.run_table;
  data.series.forEach(function (series) {
    let index = 0;
    series.runIndex = series.runs.map(function (delta) { index += delta; return index; });
  });

  function changeText(fraction) {
    return fraction === null ? 'n/a' : PD.percent(100 * fraction);
  }

  // A value in the series' display unit (ms, MiB/s, k), as the terminal report scales it.
  function valueText(value, series) {
    if (value === null) return 'n/a';
    return PD.number(value * series.factor) + (series.shown_unit ? ' ' + series.shown_unit : '');
  }

  function short(commit) { return commit ? commit.slice(0, 10) : '-'; }

  function pointText(series, run) {
    const r = series.runIndex[run];
    return ['commit ' + short(runTable.commit[r]), 'branch ' + (series.branch || '-'),
            'machine ' + (series.machine || '-'), runTable.time[r] ? 'recorded ' + runTable.time[r] : null]
      .filter(Boolean);
  }

  // --- One series' chart: every run's value, each group's level (or line, for a drifting
  // series) drawn across it (red where a regression starts, green where a progression does).
  function groupLines(series, change) {
    const points = [];
    series.groups.forEach(function (g) {
      if (g.change !== change) return;
      const first = g.first * series.factor;
      const last = g.last * series.factor;
      const end = g.start + g.runs - 1;
      const slope = g.runs > 1 ? (last - first) / (g.runs - 1) : 0;
      points.push({x: g.start, y: first}, {x: end + 0.999, y: last + slope * 0.999},
                  {x: end + 0.9995, y: NaN});
    });
    return points;
  }

  function drawSeries(container, series) {
    const values = [];
    series.values.forEach(function (v, i) { if (v !== null) values.push({x: i, y: v * series.factor}); });
    const line = function (change, colour, width) {
      return {label: change === 'normal' ? 'trend (each group\'s fit)' : change, data: groupLines(series, change),
              borderColor: colour, backgroundColor: colour, borderWidth: width, pointRadius: 0,
              pointHitRadius: 0, spanGaps: false, order: 0};
    };
    const width = Math.max(200, container.clientWidth);
    const chart = new Chart(container.firstChild, {
      type: 'line',
      data: {datasets: [
        line('normal', '#222', 2), line('regression', PD.colours.regression, 3),
        line('progression', PD.colours.progression, 3),
        {label: 'run', data: values, perfduelCounted: true, showLine: false, pointRadius: 2,
         pointHoverRadius: 4, borderColor: PD.colours.baseline, backgroundColor: PD.colours.baseline + 'aa',
         order: 1}]},
      options: {
        parsing: false, normalized: true, spanGaps: false,
        interaction: {mode: 'nearest', intersect: false, axis: 'x'},
        scales: {x: {type: 'linear', min: -0.5, max: series.values.length - 0.5,
                     title: {display: true, text: 'run (oldest first)'}, afterBuildTicks: PD.wholeTicks},
                 y: {title: {display: true, text: series.metric + (series.shown_unit ? ' (' + series.shown_unit + ')' : '')}}},
        plugins: {
          // Thinned to the extremes of each pixel column beyond about two points a pixel:
          // what a reader can see of 10,000 points, at a fraction of the drawing.
          decimation: {enabled: true, algorithm: 'min-max', threshold: 2 * width},
          legend: {position: 'top', align: 'end', labels: {boxWidth: 12, filter: function (item, chart) {
            return chart.datasets[item.datasetIndex].data.length > 0;
          }}},
          tooltip: {filter: function (item) { return item.dataset.perfduelCounted; },
                    callbacks: {
                      title: function (items) { return items.length ? 'run ' + items[0].raw.x : ''; },
                      label: function (ctx) { return valueText(ctx.raw.y / series.factor, series); },
                      afterLabel: function (ctx) { return pointText(series, ctx.raw.x); }}}}}});
    PD.markDrawn(container, chart);
  }

  // --- The changes of group, each with where it came in and the bisect command.
  function changesList(series) {
    const items = [];
    series.groups.forEach(function (g, i) {
      if (g.change === 'normal' || i === 0) return;
      const previous = series.groups[i - 1];
      const range = g.good ? 'commits ' + short(g.good) + '..' + short(g.bad) : 'commits unknown';
      items.push(PD.el('li', {class: g.change === 'regression' ? 'regression' : 'progression'},
        PD.el('strong', {}, g.change), ' at run ' + g.start + ' (' + short(runTable.commit[series.runIndex[g.start]]) +
          '): ' + valueText(previous.last, series) + ' → ' + valueText(g.first, series) + ' (' + changeText(g.step) + '), ' +
          (g.bits !== null ? PD.number(g.bits) + ' bits, ' : '') + (g.evidence ? g.evidence + ', ' : '') + range,
        g.bisect ? [' · ', PD.el('code', {class: 'bisect', title: 'the command that finds the commit' +
                                          (data.gate_note ? ' (' + data.gate_note + ')' : '')}, g.bisect)]
                 : (g.good && g.good === g.bad ? ' · both runs measured one commit: not the code (machine, load?)' : '')));
    });
    return items.length ? PD.el('ul', {class: 'changes'}, items) : null;
  }

  function seriesKind(series) {
    if (series.last_change === 'regression') return 'regression';
    if (series.regressions > 0) return 'regression';
    if (series.last_change === 'progression' || series.progressions > 0) return 'improvement';
    return 'no-change';
  }

  const sections = data.series.map(function (series, index) {
    const chart = PD.el('div', {class: 'chart trend'}, PD.el('canvas', {'aria-label': series.title}));
    const where = [series.branch ? 'branch ' + series.branch : null, series.machine ? 'machine ' + series.machine : null,
                   series.config ? 'configuration ' + series.config : null].filter(Boolean).join(' · ');
    const section = PD.el('section', {class: 'series ' + seriesKind(series), id: 'series-' + index,
                                      'data-series': series.title},
      PD.el('h3', {}, series.title + ' ', PD.badge(series.last_change === 'normal' ? 'normal' : series.last_change)),
      PD.el('p', {class: 'small'}, series.values.length + ' runs, ' + series.groups.length + ' groups, ' + series.direction +
            (where ? ' · ' + where : '') + ' · last trend ' + valueText(series.last_trend, series) +
            ' over its last ' + series.last_runs + ' runs, trend change ' + changeText(series.trend_change)),
      chart, changesList(series));
    PD.drawWhenVisible(section, function () { drawSeries(chart, series); });
    return section;
  });

  // --- The table of every series, and the filters.
  const rows = data.series.map(function (series, index) {
    const kind = seriesKind(series);
    return PD.el('tr', {class: 'row-' + kind, 'data-series': series.title, 'data-change': series.last_change},
      PD.el('td', {}, PD.el('a', {href: '#series-' + index}, series.title)),
      PD.el('td', {}, series.branch || '-'), PD.el('td', {}, series.machine || '-'),
      PD.el('td', {class: 'num'}, valueText(series.last_trend, series)),
      PD.el('td', {class: 'num'}, series.values.length),
      PD.el('td', {class: 'num'}, changeText(series.trend_change)),
      PD.el('td', {class: 'num'}, series.regression_groups), PD.el('td', {class: 'num'}, series.progression_groups),
      PD.el('td', {}, PD.badge(series.last_change)));
  });
  const table = PD.el('table', {class: 'series', id: 'series-table', 'data-series': data.series.length},
    PD.el('thead', {}, PD.el('tr', {}, [['series'], ['branch'], ['machine'], ['last trend'], ['runs'], ['trend change'],
      ['regr. groups', 'changes of group to a worse level in the whole series: the red groups of its chart, listed under it'],
      ['progr. groups', 'changes of group to a better level in the whole series: the green groups of its chart'],
      ['last group']].map(function (c) { return PD.el('th', c[1] ? {title: c[1]} : {}, c[0]); }))),
    PD.el('tbody', {}, rows));

  const filters = {branch: '', machine: '', config: '', text: '', changed: false};
  function applyFilters() {
    let shown = 0;
    data.series.forEach(function (series, i) {
      const visible = (!filters.branch || series.branch === filters.branch) &&
                      (!filters.machine || series.machine === filters.machine) &&
                      (!filters.config || series.config === filters.config) &&
                      (!filters.text || series.title.toLowerCase().includes(filters.text)) &&
                      (!filters.changed || series.regressions + series.progressions > 0 ||
                       series.last_change !== 'normal' || series.groups.some(function (g) { return g.change !== 'normal'; }));
      rows[i].classList.toggle('hidden', !visible);
      sections[i].classList.toggle('hidden', !visible);
      shown += visible ? 1 : 0;
    });
    table.dataset.shown = String(shown);
  }
  function distinct(key) {
    return [...new Set(data.series.map(function (s) { return s[key]; }).filter(Boolean))].sort();
  }
  const controls = PD.el('div', {class: 'controls'});
  [['branch', 'branch'], ['machine', 'machine'], ['configuration', 'config']].forEach(function (f) {
    const values = distinct(f[1]);
    if (values.length > 0) {
      controls.append(PD.select(f[0], values, function (v) { filters[f[1]] = v; applyFilters(); }));
    }
  });
  const search = PD.el('input', {type: 'search', placeholder: 'metric contains…', 'aria-label': 'metric'});
  search.addEventListener('input', function () { filters.text = search.value.toLowerCase(); applyFilters(); });
  const changed = PD.el('input', {type: 'checkbox'});
  changed.addEventListener('change', function () { filters.changed = changed.checked; applyFilters(); });
  controls.append(search, PD.el('label', {class: 'filter'}, changed, ' only series with a change of group'));

  const regressed = data.series.filter(function (s) { return s.last_change === 'regression'; }).length;
  page.append(PD.el('header', {},
    PD.el('h1', {class: 'headline ' + (regressed ? 'regression' : 'no-change')},
          'perfduel trend: ' + data.series.length + ' series' +
          (regressed ? ', ' + regressed + ' regressed in the last group' : ', no regression in the last group')),
    PD.el('p', {class: 'small'}, 'from ' + data.source + ' · written ' + data.generated + ' · trend change against ' +
          'the best trend ' + data.long + '..' + data.short + ' runs ago · hover a point for its commit, branch ' +
          'and machine' + (data.gate_note ? ' · in the bisect commands, ' + data.gate_note : ''))));
  page.append(controls, table, ...sections);
  applyFilters();
  PD.ready();
})();
