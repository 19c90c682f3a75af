// Where a regression happened, on the run page: per regressed (or likely regressed) metric with an
// explanation (report/html_run.cpp, "explanations"), its head line as the terminal says it, an
// icicle of the differential call tree (a flame graph drawn top-down) and, beside it, the
// functions that carry the change. PD.where(explanation, id) returns the section, `id` its id (a
// link to it: run.html#where-0-0).
'use strict';

PD.where = (function () {
  const kRowHeight = 20;

  // A node's colour by the relative change of its inclusive cost on its call path: Paul Tol's
  // diverging blue-red scheme (BuRd, safe for colour blindness, from the author of the page's
  // other colours: report/palette.hpp), red more, blue less, grey within 1 %. Bins, not a
  // continuous scale, so that the legend says what each colour means.
  const kBins = [
    {upTo: 0.5, colour: '#2166ac', text: '#fff', label: '≤ −50 % or gone'},
    {upTo: 0.9, colour: '#4393c3', text: '#fff', label: '−50…−10 %'},
    {upTo: 0.99, colour: '#92c5de', text: '#222', label: '−10…−1 %'},
    {upTo: 1.01, colour: '#dddddd', text: '#222', label: '±1 %'},
    {upTo: 1.1, colour: '#f4a582', text: '#222', label: '+1…+10 %'},
    {upTo: 1.5, colour: '#d6604d', text: '#fff', label: '+10…+50 %'},
    {upTo: Infinity, colour: '#b2182b', text: '#fff', label: '≥ +50 % or new'},
  ];

  function binOf(baseline, candidate) {
    if (baseline <= 0) return kBins[candidate > 0 ? kBins.length - 1 : 3];
    const ratio = candidate / baseline;
    return kBins.find(function (bin) { return ratio < bin.upTo; }) || kBins[kBins.length - 1];
  }

  // A count grouped by thousands, or to three digits below 100 (a cost per iteration can be a
  // fraction): "14,151,440", "2.5".
  function count(value) {
    if (Math.abs(value) < 100) return String(Number(value.toPrecision(3)));
    return Math.round(value).toLocaleString('en-US');
  }

  function signedCount(value) {
    return (value > 0 ? '+' : value < 0 ? '−' : '±') + count(Math.abs(value));
  }

  function changeText(baseline, candidate) {
    if (baseline <= 0 && candidate <= 0) return 'none';
    if (baseline <= 0) return 'new on this path (' + signedCount(candidate) + ')';
    if (candidate <= 0) return 'gone from this path (' + signedCount(-baseline) + ')';
    return PD.percent(100 * (candidate / baseline - 1), 1) + ' (' + signedCount(candidate - baseline) + ')';
  }

  // A function's name for a label: without its parameter list, template arguments folded to
  // "<…>", no "(anonymous namespace)::" (nor the "::" left where a profile dropped it). The full
  // name is in the node's title.
  function label(name) {
    // Callgrind marks a recursive call's deeper levels "'2", "'3": kept after the short name.
    const level = (name.match(/'[0-9]+$/) || [''])[0];
    let text = name.slice(0, name.length - level.length).replace(/ const$/, '');
    if (text.endsWith(')')) {
      let depth = 0;
      for (let i = text.length - 1; i >= 0; --i) {
        if (text[i] === ')') ++depth;
        if (text[i] === '(' && --depth === 0) {
          if (i > 0) text = text.slice(0, i);
          break;
        }
      }
    }
    while (/<[^<>]*>/.test(text)) text = text.replace(/<[^<>]*>/g, '\u0000');
    return text.replace(/\u0000+/g, '<…>').replace(/\(anonymous namespace\)::/g, '').replace(/^::/, '') + level;
  }

  // Where each row of `tree` ([name, parent, baseline, candidate], parents first) is drawn with
  // `focus` as the whole width: {x, width} in parts of the width and the depth, or null when
  // not drawn. A node is as wide as the larger of its two costs (not the candidate's alone), so
  // that a function gone from a path (inlined, removed) still shows, in blue, beside the ones
  // that grew; children whose larger costs add up to more than their parent's (cost that moved
  // between siblings) are narrowed in proportion to fit under it. The focus's ancestors span the
  // whole width above it.
  function layout(tree, focus) {
    const size = tree.map(function (row) { return Math.max(row[2], row[3], 0); });
    const children = tree.map(function () { return []; });
    tree.forEach(function (row, i) { if (row[1] >= 0) children[row[1]].push(i); });
    const place = tree.map(function () { return null; });
    const path = new Set();
    for (let i = focus; i >= 0; i = tree[i][1]) path.add(i);
    tree.forEach(function (row, i) {
      if (path.has(i)) {
        place[i] = {x: 0, width: 1, depth: row[1] >= 0 && place[row[1]] ? place[row[1]].depth + 1 : 0};
      }
      if (!place[i] || (path.has(i) && i !== focus)) return;
      const kids = children[i];
      const total = Math.max(size[i], kids.reduce(function (sum, k) { return sum + size[k]; }, 0));
      let x = place[i].x;
      kids.forEach(function (k) {
        const width = total > 0 ? place[i].width * size[k] / total : 0;
        place[k] = {x: x, width: width, depth: place[i].depth + 1};
        x += width;
      });
    });
    return place;
  }

  function nodeTitle(row, per) {
    return row[0] + '\nbaseline: ' + count(row[2]) + ' ' + per + '\ncandidate: ' + count(row[3]) +
           '\nchange: ' + changeText(row[2], row[3]);
  }

  // The icicle of `explanation`: the root "all" on top, each function's callees below it. A click
  // on a node widens it to the whole width; a click on a node above it (or on "all") goes back.
  function icicle(explanation, hover) {
    const tree = explanation.tree;
    const per = explanation.event + ' ' + explanation.per;
    const frame = PD.el('div', {class: 'icicle', role: 'img',
                                'aria-label': 'call tree of ' + explanation.metric + ', coloured by change'});
    let shown = 0;
    function draw(focus) {
      shown = focus;
      const place = layout(tree, focus);
      let depth = 0;
      let drawn = 0;
      const nodes = [];
      tree.forEach(function (row, i) {
        const at = place[i];
        if (!at || at.width <= 0) return;
        const bin = binOf(row[2], row[3]);
        const node = PD.el('div', {class: 'node' + (i === focus && i > 0 ? ' focus' : ''), title: nodeTitle(row, per),
                                   'data-name': row[0]}, at.width * frame.clientWidth >= 28 ? label(row[0]) : '');
        node.style.left = (100 * at.x) + '%';
        node.style.width = (100 * at.width) + '%';
        node.style.top = (at.depth * kRowHeight) + 'px';
        node.style.background = bin.colour;
        node.style.color = bin.text;
        node.addEventListener('click', function () { draw(i === focus ? Math.max(tree[i][1], 0) : i); });
        node.addEventListener('mouseenter', function () {
          hover.textContent = label(row[0]) + ': ' + count(row[2]) + ' → ' + count(row[3]) + ' ' + per + ', ' +
                              changeText(row[2], row[3]);
        });
        nodes.push(node);
        depth = Math.max(depth, at.depth);
        drawn += 1;
      });
      frame.replaceChildren(...nodes);
      frame.style.height = ((depth + 1) * kRowHeight) + 'px';
      frame.dataset.nodes = String(drawn);
      frame.dataset.focus = String(focus);
    }
    // A label is written where it has room, so the frame's width decides: drawn again when it
    // changes (first when the frame enters the page).
    draw(0);
    let width = 0;
    new ResizeObserver(function () {
      if (frame.clientWidth !== width) {
        width = frame.clientWidth;
        draw(shown);
      }
    }).observe(frame);
    return frame;
  }

  function legend() {
    return PD.el('div', {class: 'legend'},
      kBins.map(function (bin) {
        const swatch = PD.el('span', {class: 'swatch'});
        swatch.style.background = bin.colour;
        return PD.el('span', {class: 'key'}, swatch, bin.label);
      }));
  }

  // The functions that carry the change, as the Markdown comment lists them; hovering one marks
  // it in the icicle.
  function functionsTable(explanation, frame) {
    const mark = function (name, on) {
      frame.querySelectorAll('.node').forEach(function (node) {
        node.classList.toggle('marked', on && node.dataset.name === name);
      });
    };
    const rows = explanation.functions.map(function (f) {
      const changed = f.change === 'changed' ? '' : PD.el('span', {class: 'tag ' + f.change},
                                                          f.change === 'added' ? 'new' : 'gone');
      return PD.el('tr', {class: f.share > 0 ? 'more' : 'less', 'data-function': f.name,
                          onmouseenter: function () { mark(f.name, true); },
                          onmouseleave: function () { mark(f.name, false); }},
        PD.el('td', {class: 'num'}, PD.number(Math.round(100 * f.share)) + ' %'),
        PD.el('td', {class: 'name'}, PD.el('code', {title: f.name}, f.short), ' ', changed,
              f.place ? PD.el('div', {class: 'place'}, f.place) : ''),
        PD.el('td', {class: 'num'}, count(f.baseline)),
        PD.el('td', {class: 'num'}, count(f.candidate)));
    });
    return PD.el('table', {class: 'functions', 'data-functions': explanation.functions.length},
      PD.el('thead', {}, PD.el('tr', {},
        PD.el('th', {title: 'its part in the change of the total, cost moved by inlining left out'}, 'share'),
        PD.el('th', {}, 'function, source'),
        PD.el('th', {class: 'num', title: 'its own ' + explanation.event + ' ' + explanation.per}, 'baseline'),
        PD.el('th', {class: 'num'}, 'candidate'))),
      PD.el('tbody', {}, rows));
  }

  return function (explanation, id) {
    const section = PD.el('section', {class: 'where', id: id, 'data-metric': explanation.metric,
                                      'data-reading': explanation.reading},
                          PD.el('h3', {}, 'where: ' + explanation.head));
    if (explanation.instead) section.append(PD.el('p', {class: 'instead'}, explanation.instead));
    const drawTree = explanation.tree.length >= 2 &&
                     (explanation.reading === 'explained' || explanation.reading === 'moved');
    if (!drawTree && explanation.functions.length === 0) return section;
    const both = drawTree && explanation.functions.length > 0;
    const body = PD.el('div', {class: 'where-body' + (both ? '' : ' single')});
    const hover = PD.el('p', {class: 'small hover'}, 'Hover a function for its values; click it to widen it.');
    const key = PD.el('p', {class: 'small'}, 'Colour: the change of each call path\'s ' + explanation.event +
                      '; width: the larger of its two sides (' + explanation.per + ').');
    let frame = PD.el('div');
    if (drawTree) {
      frame = icicle(explanation, hover);
      body.append(PD.el('div', {class: 'flame'}, legend(), frame, hover, key));
    }
    if (explanation.functions.length > 0) {
      body.append(PD.el('div', {class: 'table'},
                        PD.el('p', {class: 'small'}, 'The functions that carry the change: their own ' +
                                                     explanation.event + ' ' + explanation.per),
                        functionsTable(explanation, frame)));
    }
    section.append(body);
    return section;
  };
})();
