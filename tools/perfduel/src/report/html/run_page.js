// The run page (perfduel summary --html, compare --html, analyze --html): the table of every
// gate, the failed and undecided ones in words, then each gate's duel. Data: report/html_run.cpp.
'use strict';

(function () {
  const data = PD.data;
  const page = document.getElementById('page');
  PD.chartDefaults();

  // More metrics than this in a gate and only the gated and changed ones get a chart at first;
  // the others get theirs when their row is clicked.
  const kOpenCharts = 8;

  function gateId(index) { return 'gate-' + index; }

  // --- The summary table: one row per gated metric, as `perfduel summary` prints it.
  function summaryTable() {
    const body = PD.el('tbody');
    data.gates.forEach(function (gate, index) {
      const rows = gate.rows.length > 0 ? gate.rows : [null];
      rows.forEach(function (row, i) {
        const first = i === 0;
        const verdict = row ? row.verdict : gate.verdict;
        // A gate that failed to run is marked as failed on every row, whatever its metrics read.
        const kind = PD.verdictKind(gate.verdict) === 'failed' ? 'failed' : PD.verdictKind(verdict);
        body.append(PD.el('tr', {class: 'row-' + kind + (first ? ' first' : ''), 'data-gate': gate.name,
                                 'data-verdict': verdict},
          PD.el('td', {}, first ? PD.el('a', {href: '#' + gateId(index)}, gate.name) : ''),
          PD.el('td', {}, first ? PD.badge(gate.verdict) : ''),
          PD.el('td', {}, row ? (row.verdict === gate.verdict ? row.metric : row.metric + ' (' + row.verdict + ')')
                              : '-'),
          PD.el('td', {class: 'num'}, row ? row.change : '-'),
          PD.el('td', {class: 'num'}, row ? row.interval : '-'),
          PD.el('td', {class: 'num'}, first ? gate.rounds : ''),
          PD.el('td', {class: 'num'}, first ? gate.time : '')));
      });
    });
    return PD.el('table', {id: 'gates', class: 'summary', 'data-gates': data.gates.length},
      PD.el('thead', {}, PD.el('tr', {},
        ['gate', 'verdict', 'metric', 'change', 'interval', 'rounds', 'time'].map(function (c) {
          return PD.el('th', {}, c);
        }))),
      body);
  }

  // The failed and undecided gates in plain words, as the pull-request comment says them.
  function plainWords() {
    const failed = data.gates.filter(function (g) { return g.words && PD.verdictKind(g.verdict) === 'failed'; });
    const undecided = data.gates.filter(function (g) {
      return g.words && !g.identical && PD.verdictKind(g.verdict) !== 'failed';
    });
    const identical = data.gates.filter(function (g) { return g.identical; });
    const section = PD.el('div', {class: 'words'});
    if (failed.length > 0) {
      section.append(PD.el('p', {}, PD.el('strong', {}, 'Failed to run'),
                           ': no verdict; the gate\'s log in the job says why.'),
                     PD.el('ul', {class: 'failed'}, failed.map(function (g) { return PD.el('li', {}, g.words); })));
    }
    if (undecided.length > 0) {
      section.append(PD.el('p', {}, PD.el('strong', {}, 'Undecided'),
                           ': these do not fail the run, but what they measure is not known well enough to ' +
                           'say whether it changed.'),
                     PD.el('ul', {class: 'undecided'},
                           undecided.map(function (g) { return PD.el('li', {}, g.words); })));
    }
    if (identical.length > 0) {
      section.append(PD.el('p', {class: 'identical'}, PD.el('strong', {}, 'Nothing to measure'), ': ' +
                           identical.map(function (g) { return g.name; }).join(', ') +
                           (identical.length === 1 ? ' ran' : ' ran') +
                           ' identical programs on both sides (the same executable, libraries and files): ' +
                           'no change, without a run.'));
    }
    return section;
  }

  // --- A metric's two charts.
  function points(values, factor) {
    const out = [];
    values.forEach(function (v, r) { if (v !== null) out.push({x: r + 1, y: v * factor}); });
    return out;
  }

  function flat(y, last, label, colour, extra) {
    return Object.assign({type: 'line', label: label, data: [{x: 0.5, y: y}, {x: last + 0.5, y: y}],
                          borderColor: colour, borderWidth: 1, pointRadius: 0, pointHitRadius: 0, fill: false},
                         extra || {});
  }

  function runsChart(canvas, metric, duel) {
    const warm = duel.warmup;
    const unit = metric.shown_unit;
    const side = function (label, values, colour, style) {
      return {label: label, data: points(values, metric.factor), perfduelCounted: true,
              pointStyle: style, pointRadius: 3, pointHoverRadius: 5, borderColor: colour,
              backgroundColor: function (ctx) {
                return ctx.raw && warm[ctx.raw.x - 1] ? 'rgba(0,0,0,0)' : colour;
              }};
    };
    return new Chart(canvas, {
      type: 'scatter',
      data: {datasets: [side('baseline', metric.baseline, PD.colours.baseline, 'circle'),
                        side('candidate', metric.candidate, PD.colours.candidate, 'rect')]},
      options: {
        parsing: false,
        scales: {x: {type: 'linear', min: 0.5, max: warm.length + 0.5, title: {display: true, text: 'round'},
                     afterBuildTicks: PD.wholeTicks},
                 y: {title: {display: true, text: metric.name + (unit ? ' (' + unit + ')' : '')}}},
        plugins: {
          legend: {position: 'top', align: 'end',
                   labels: {usePointStyle: true, boxWidth: 8, generateLabels: PD.legendLabels}},
          tooltip: {callbacks: {label: function (ctx) {
            return ctx.dataset.label + ', round ' + ctx.raw.x + (warm[ctx.raw.x - 1] ? ' (warm-up)' : '') + ': ' +
                   PD.number(ctx.raw.y) + (unit ? ' ' + unit : '');
          }}}}}});
  }

  function changeChart(canvas, metric, duel) {
    const last = duel.warmup.length;
    const colour = PD.colourOf(metric.verdict);
    const datasets = [];
    if (metric.tolerance > 0) {
      const t = 100 * metric.tolerance;
      const band = {borderDash: [4, 3], borderColor: '#999'};
      datasets.push(flat(-t, last, 'tolerance band', '#999', Object.assign({perfduelTwin: true}, band)));
      datasets.push(flat(t, last, 'tolerance ±' + PD.number(t) + ' %', '#999',
                         Object.assign({fill: '-1', backgroundColor: 'rgba(0,0,0,0.06)'}, band)));
    }
    if (metric.ci) {
      const lo = 100 * metric.ci[0];
      const hi = 100 * metric.ci[1];
      const label = PD.number(100 * metric.confidence) + ' % interval';
      datasets.push(flat(lo, last, label, colour + '55', {perfduelTwin: true}));
      datasets.push(flat(hi, last, label, colour + '55', {fill: '-1', backgroundColor: colour + '38'}));
    }
    if (metric.change !== null) {
      datasets.push(flat(100 * metric.change, last, 'estimate ' + PD.percent(100 * metric.change), colour,
                         {borderWidth: 2}));
    }
    datasets.push({type: 'scatter', label: 'change of one round', perfduelCounted: true,
                   data: points(metric.per_round, 1), pointRadius: 3, pointHoverRadius: 5,
                   borderColor: PD.colours.round, backgroundColor: function (ctx) {
                     return ctx.raw && duel.warmup[ctx.raw.x - 1] ? 'rgba(0,0,0,0)' : PD.colours.round;
                   }});
    return new Chart(canvas, {
      type: 'scatter',
      data: {datasets: datasets},
      options: {
        parsing: false,
        scales: {x: {type: 'linear', min: 0.5, max: last + 0.5, title: {display: true, text: 'round'},
                     afterBuildTicks: PD.wholeTicks},
                 y: {title: {display: true, text: 'change per round (%)'},
                     ticks: {callback: function (v) { return (v > 0 ? '+' : '') + v; }}}},
        plugins: {
          legend: {position: 'top', align: 'end',
                   labels: {boxWidth: 12, generateLabels: PD.legendLabels}},
          tooltip: {filter: function (item) { return item.dataset.perfduelCounted; },
                    callbacks: {label: function (ctx) {
                      return 'round ' + ctx.raw.x + ': ' + PD.percent(ctx.raw.y) +
                             (duel.warmup[ctx.raw.x - 1] ? ' (warm-up, not used)' : '');
                    }}}}}});
  }

  function metricTitle(metric) {
    let numbers = metric.change_text || 'n/a';
    if (metric.change !== null) {
      numbers = PD.percent(100 * metric.change) +
                (metric.ci ? ' [' + PD.percent(100 * metric.ci[0]) + ', ' + PD.percent(100 * metric.ci[1]) + ']'
                           : ' (no interval)');
    }
    return [metric.name + ': ' + numbers + ' ', PD.badge(metric.verdict + (metric.gated ? '' : ' (info)'))];
  }

  function metricPanel(metric, duel, gateIndex, metricIndex) {
    const small = 'medians ' + metric.baseline_median + ' → ' + metric.candidate_median +
                  (metric.estimator ? ' · estimator ' + metric.estimator : '') + ' · ' + metric.rounds + ' rounds' +
                  (metric.threshold !== null ? ' · threshold ' + PD.number(100 * metric.threshold) + ' %' : '') +
                  (metric.tolerance > 0 ? ', tolerance ±' + PD.number(100 * metric.tolerance) + ' %' : '') +
                  ' · ' + metric.direction.replace(/_/g, ' ');
    const runs = PD.el('div', {class: 'chart runs'}, PD.el('canvas', {'aria-label': metric.name + ': every run'}));
    const change = PD.el('div', {class: 'chart change'},
                         PD.el('canvas', {'aria-label': metric.name + ': change per round'}));
    const panel = PD.el('section', {class: 'metric ' + PD.verdictKind(metric.verdict),
                                    id: 'metric-' + gateIndex + '-' + metricIndex, 'data-metric': metric.name},
                        PD.el('h4', {}, metricTitle(metric)), PD.el('p', {class: 'small'}, small), runs, change);
    PD.drawWhenVisible(panel, function () {
      PD.markDrawn(runs, runsChart(runs.firstChild, metric, duel));
      PD.markDrawn(change, changeChart(change.firstChild, metric, duel));
    });
    return panel;
  }

  // --- A suite's metrics: sortable by change, filterable by verdict; a click shows the chart.
  function metricsTable(gate, gateIndex, panels, openPanel) {
    const metrics = gate.duel.metrics.map(function (m, i) { return {metric: m, index: i}; });
    const body = PD.el('tbody');
    let order = 0;  // 0 as reported, 1 change descending, -1 ascending
    let verdictFilter = '';
    function render() {
      const shown = metrics.filter(function (m) { return !verdictFilter || m.metric.verdict === verdictFilter; });
      if (order !== 0) {
        shown.sort(function (a, b) {
          const x = a.metric.change === null ? -Infinity : a.metric.change;
          const y = b.metric.change === null ? -Infinity : b.metric.change;
          return order * (y - x);
        });
      }
      body.replaceChildren(...shown.map(function (m) {
        const metric = m.metric;
        return PD.el('tr', {class: 'row-' + PD.verdictKind(metric.verdict), 'data-verdict': metric.verdict,
                            onclick: function () { openPanel(m.index); }},
          PD.el('td', {}, PD.el('a', {href: '#metric-' + gateIndex + '-' + m.index}, metric.name)),
          PD.el('td', {}, PD.badge(metric.verdict + (metric.gated ? '' : ' (info)'))),
          PD.el('td', {class: 'num'}, metric.change_text || (metric.change === null ? 'n/a' : PD.percent(100 * metric.change))),
          PD.el('td', {class: 'num'}, metric.ci ? '[' + PD.percent(100 * metric.ci[0]) + ', ' +
                                                  PD.percent(100 * metric.ci[1]) + ']' : 'n/a'),
          PD.el('td', {class: 'num'}, metric.baseline_median),
          PD.el('td', {class: 'num'}, metric.candidate_median));
      }));
      table.dataset.shown = String(shown.length);
    }
    const sortHeader = PD.el('th', {class: 'sortable', title: 'sort by change'}, 'change ⇅');
    sortHeader.addEventListener('click', function () {
      order = order === 1 ? -1 : 1;
      sortHeader.textContent = order === 1 ? 'change ▼' : 'change ▲';
      render();
    });
    const table = PD.el('table', {class: 'metrics'},
      PD.el('thead', {}, PD.el('tr', {}, PD.el('th', {}, 'metric'), PD.el('th', {}, 'verdict'), sortHeader,
                               PD.el('th', {}, 'interval'), PD.el('th', {}, 'baseline'),
                               PD.el('th', {}, 'candidate'))),
      body);
    const verdicts = [...new Set(metrics.map(function (m) { return m.metric.verdict; }))];
    const filter = PD.select('verdict', verdicts, function (v) { verdictFilter = v; render(); });
    render();
    return PD.el('div', {class: 'suite'}, PD.el('div', {class: 'controls'}, filter), table);
  }

  function duelSection(gate, index) {
    const duel = gate.duel;
    const section = PD.el('section', {class: 'gate ' + PD.verdictKind(gate.verdict), id: gateId(index),
                                      'data-gate': gate.name},
                          PD.el('h2', {}, gate.name + ' ', PD.badge(gate.verdict)));
    if (gate.words) section.append(PD.el('p', {class: 'words' + (gate.identical ? ' neutral' : '')}, gate.words));
    if (!duel) {
      section.append(PD.el('p', {class: 'small'}, 'No duel: ' + (gate.reason || 'nothing was run') + '.'));
      return section;
    }
    section.append(PD.el('dl', {class: 'commands'},
      PD.el('dt', {class: 'baseline'}, '● baseline'), PD.el('dd', {}, PD.el('code', {}, duel.baseline || '(none)')),
      PD.el('dt', {class: 'candidate'}, '■ candidate'), PD.el('dd', {}, PD.el('code', {}, duel.candidate || '(none)'))));
    section.append(PD.el('p', {class: 'small'},
      duel.measured_rounds + ' measured rounds in ' + PD.number(duel.seconds) + ' s, ended: ' + duel.end +
      (duel.started ? ' · started ' + duel.started : '')));
    if (duel.error) section.append(PD.el('pre', {class: 'error'}, duel.error));

    // Gated metrics first, then the rest, in the report's order.
    const order = duel.metrics.map(function (m, i) { return i; });
    order.sort(function (a, b) { return (duel.metrics[b].gated ? 1 : 0) - (duel.metrics[a].gated ? 1 : 0) || a - b; });
    const withRuns = order.filter(function (i) {
      const m = duel.metrics[i];
      return m.baseline.some(function (v) { return v !== null; }) || m.candidate.some(function (v) { return v !== null; });
    });
    const panels = PD.el('div', {class: 'panels'});
    const open = new Map();
    function openPanel(i) {
      if (!open.has(i)) {
        const panel = metricPanel(duel.metrics[i], duel, index, i);
        open.set(i, panel);
        panels.append(panel);
      }
      open.get(i).scrollIntoView({block: 'nearest'});
    }
    // A duel that ended before its second round has nothing to see in a chart: its table says it.
    let first = duel.warmup.length >= 2 ? withRuns : [];
    if (first.length > kOpenCharts) {
      first = withRuns.filter(function (i) {
        return PD.verdictKind(duel.metrics[i].verdict) !== 'no-change';
      }).slice(0, kOpenCharts);
    }
    if (duel.metrics.length > 1) section.append(metricsTable(gate, index, panels, openPanel));
    first.forEach(function (i) {
      const panel = metricPanel(duel.metrics[i], duel, index, i);
      open.set(i, panel);
      panels.append(panel);
    });
    if (withRuns.length === 0) {
      section.append(PD.el('p', {class: 'small'},
                           duel.end.startsWith('identical') ? 'Identical programs: nothing to measure.' : 'No runs to draw.'));
    }
    section.append(panels);
    // Where each regression happened (where.js), under the charts that show it happened.
    (duel.explanations || []).forEach(function (explanation, k) {
      section.append(PD.where(explanation, 'where-' + index + '-' + k));
    });
    if (duel.notes.length > 0) {
      section.append(PD.el('details', {class: 'notes', open: duel.notes.length <= 6},
        PD.el('summary', {}, duel.notes.length + ' notes'),
        PD.el('ul', {}, duel.notes.map(function (n) { return PD.el('li', {}, n); }))));
    }
    return section;
  }

  page.append(PD.el('header', {},
    PD.el('h1', {class: 'headline ' + (data.exit_code === 1 ? 'regression' : data.exit_code === 0 ? 'no-change' : 'undecided')},
          'perfduel: ' + data.headline),
    PD.el('p', {class: 'small'}, 'written ' + data.generated + ' · hover a point for its value; ' +
          'click a gate for its duel')));
  page.append(summaryTable());
  page.append(plainWords());
  data.gates.forEach(function (gate, index) { page.append(duelSection(gate, index)); });
  PD.ready();
})();
