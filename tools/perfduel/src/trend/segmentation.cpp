// Penalised least-squares segmentation, for levels and for lines, and the choice between
// them by description length (a two-part code: the residuals at one noise level, a cost
// per cut, ½ ln N nats per parameter of the shape, as BIC; Schwarz 1978, Rissanen 1978).
//
// Why these steps, each measured on the labelled series of docs/history.md and on
// generated benchmark histories (tools/bench/trend_score.sh, docs/history.md "How well it
// finds changes"):
//  - Outliers are set aside first (a Hampel filter: a run more than 3 robust deviations
//    from the median of the 11 runs around it counts as that median when choosing cuts):
//    least squares would otherwise cut a lone slow run into a group of its own, and one
//    large outlier inflates the noise so that real steps are missed.
//  - One noise level for the whole series, in two passes: first the series around one
//    level (or line), which is conservative, then the pooled noise within the segments
//    that pass found, so that a large step does not hide the smaller ones. (A series too
//    short for any cut at the first level starts from its best single cut instead.)
//  - A line per segment when the whole series is better described so: a slow drift (a
//    balance, a population, a cache that fills) is one segment, not a staircase. (A series
//    of more than 2,000 runs is judged on 1,000 blocks of it, then fitted in that shape
//    only: a drift is a property of the whole series, and the full search is quadratic
//    where nothing changes.)
//  - The exact optimum (optimal_partition.hpp) rather than binary segmentation: no missed
//    pair of close changes, and no dependence on the order of the splits.
#include "trend/segmentation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "trend/optimal_partition.hpp"

namespace perfduel::trend {

namespace {

// A Hampel filter's half window and threshold (in robust standard deviations, 1.4826 MAD).
constexpr std::size_t k_half_window = 5;
constexpr double k_outlier_deviations = 3.0;

double median_of(std::vector<double>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  const double upper = *middle;
  if (values.size() % 2 == 1) {
    return upper;
  }
  return (upper + *std::max_element(values.begin(), middle)) / 2;
}

// The run averages with each outlier replaced by the median of the runs around it. A run is
// an outlier when it is further than k_outlier_deviations robust deviations from that median
// (none when the deviation is 0: most of the window agrees exactly, as counted metrics do).
std::vector<double> without_outliers(std::span<const RunStats> runs) {
  std::vector<double> cleaned(runs.size());
  std::vector<double> window;
  std::vector<double> deviations;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::size_t begin = i > k_half_window ? i - k_half_window : 0;
    const std::size_t end = std::min(runs.size(), i + k_half_window + 1);
    window.clear();
    for (std::size_t k = begin; k < end; ++k) {
      window.push_back(runs[k].avg);
    }
    const double median = median_of(window);
    deviations.clear();
    for (std::size_t k = begin; k < end; ++k) {
      deviations.push_back(std::fabs(runs[k].avg - median));
    }
    const double spread = 1.4826 * median_of(deviations);
    cleaned[i] =
        spread > 0 && std::fabs(runs[i].avg - median) > k_outlier_deviations * spread ? median : runs[i].avg;
  }
  return cleaned;
}

// One shape's segmentation: the starts, the noise variance, the cost of a cut in units of
// that variance, and the description length of the series in nats.
struct Candidate {
  SegmentShape shape = SegmentShape::level;
  std::vector<std::size_t> starts{0};
  double variance = 0.0;
  double penalty = 0.0;
  double length = std::numeric_limits<double>::infinity();
};

double parameters_of(SegmentShape shape) {
  return shape == SegmentShape::level ? 1.0 : 2.0;
}

double total_rss(const Prefix& p, const std::vector<std::size_t>& starts, SegmentShape shape) {
  double sum = 0.0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : p.runs();
    sum += segment_rss(p, starts[i], end, shape);
  }
  return sum;
}

// The residual variance of the segments `starts` of `p`, each fitted by `shape`.
double pooled_variance(const Prefix& p, const std::vector<std::size_t>& starts, SegmentShape shape) {
  const double fitted = static_cast<double>(starts.size()) * parameters_of(shape);
  const double dof = p.w.back() - fitted;
  return dof > 0 ? total_rss(p, starts, shape) / dof : 0.0;
}

// Residuals this small against the series' scale (1) are rounding: the fit is exact.
// (The sums are of values scaled to about 1, so their rounding leaves residuals of about
// 1e-16 per sample; a real noise that small is a counted metric's, already exact.)
constexpr double k_exact = 1e-12;

// The description length in nats of `p` cut at `starts`, fitted by `shape`, with `nats` per cut.
double description_length(const Prefix& p, const std::vector<std::size_t>& starts, SegmentShape shape,
                          double nats) {
  const double samples = p.w.back();
  return samples / 2 * std::log(std::max(total_rss(p, starts, shape), samples * k_exact) / samples) +
         static_cast<double>(starts.size() - 1) * nats + parameters_of(shape) / 2 * std::log(samples);
}

// On a series so short that the noise around one level leaves no cut affordable (a cut
// saves at most N − 1 variances), its best single cut, when that cut is worth its bits.
std::optional<std::vector<std::size_t>> short_series_cut(const Prefix& p, SegmentShape shape, double nats) {
  const std::size_t count = p.runs();
  const std::size_t shortest = min_runs(shape);
  std::optional<std::size_t> best_cut;
  double best_rss = 0.0;
  for (std::size_t cut = shortest; cut + shortest <= count; ++cut) {
    const double rss = segment_rss(p, 0, cut, shape) + segment_rss(p, cut, count, shape);
    if (!best_cut || rss < best_rss) {
      best_cut = cut;
      best_rss = rss;
    }
  }
  if (!best_cut) {
    return std::nullopt;
  }
  std::vector<std::size_t> one_cut{0, *best_cut};
  if (description_length(p, one_cut, shape, nats) >= description_length(p, {0}, shape, nats)) {
    return std::nullopt;
  }
  return one_cut;
}

Candidate fit_shape(const Prefix& p, SegmentShape shape, const SegmentationOptions& options) {
  Candidate c;
  c.shape = shape;
  const double samples = p.w.back();
  if (p.runs() < min_runs(shape)) {
    return c;
  }
  const double nats = (options.change_cost + (shape == SegmentShape::line ? 0.5 : 0.0)) * std::log(samples);
  c.penalty = 2 * nats;
  c.variance = pooled_variance(p, c.starts, shape);
  if (samples - parameters_of(shape) <= c.penalty) {
    if (const auto one_cut = short_series_cut(p, shape, nats)) {
      // The search starts from the noise around that cut; an exact cut is the answer.
      const double around = pooled_variance(p, *one_cut, shape);
      if (around <= k_exact) {
        c.starts = *one_cut;
      }
      c.variance = around;
    }
  }
  if (c.variance > k_exact) {
    c.starts = optimal_starts(p, shape, c.variance, c.penalty);
    // Second pass at the noise within the segments found; an exact fit keeps the first,
    // and without a cut the noise is the same.
    const double within = pooled_variance(p, c.starts, shape);
    if (within > k_exact && c.starts.size() > 1) {
      c.variance = within;
      c.starts = optimal_starts(p, shape, c.variance, c.penalty);
    }
  }
  c.length = description_length(p, c.starts, shape, nats);
  return c;
}

// The fitted line (or level) of runs [a, b) of `runs` with each run's average from
// `averages` (outliers set aside): the slope per run, the run offset from `a` at which it
// passes through its average, and that average.
struct Fit {
  double slope = 0.0;
  double origin = 0.0;
  double average = 0.0;
};

Fit fit_line(std::span<const RunStats> runs, std::span<const double> averages, std::size_t a, std::size_t b,
             SegmentShape shape) {
  double w = 0.0;
  double t = 0.0;
  double tt = 0.0;
  double tx = 0.0;
  double x = 0.0;
  for (std::size_t i = a; i < b; ++i) {
    const auto n = static_cast<double>(runs[i].size);
    const auto time = static_cast<double>(i - a);
    w += n;
    t += n * time;
    tt += n * time * time;
    tx += n * time * averages[i];
    x += n * averages[i];
  }
  Fit fit;
  fit.origin = t / w;
  fit.average = x / w;
  const double spread = tt - t * t / w;
  if (shape == SegmentShape::line && spread > 1e-9 * w) {
    fit.slope = (tx - t * x / w) / spread;
  }
  return fit;
}

// The groups of `c`'s starts over the raw `runs` (their statistics) fitted on `cleaned`,
// with their bits and the gain of each cut (on the series as the cuts were chosen, `p`).
std::vector<Group> make_groups(std::span<const RunStats> runs, std::span<const double> cleaned,
                               const Prefix& p, const Candidate& c) {
  std::vector<Group> groups;
  const double variance = c.variance > k_exact ? c.variance : 1.0;
  // Exact segments (a counted metric's steps) have no noise to weigh a cut against: their
  // cuts are weighed by the description length, residuals floored at rounding.
  const bool exact = pooled_variance(p, c.starts, c.shape) <= k_exact;
  const double nats = c.penalty / 2;
  const double to_bits = 1.0 / (2 * std::numbers::ln2);
  for (std::size_t i = 0; i < c.starts.size(); ++i) {
    const std::size_t a = c.starts[i];
    const std::size_t b = i + 1 < c.starts.size() ? c.starts[i + 1] : runs.size();
    Group g;
    g.start = a;
    g.runs = b - a;
    g.stats = merge_runs(runs.subspan(a, b - a));
    const Fit fit = fit_line(runs, cleaned, a, b, c.shape);
    g.slope = fit.slope;
    g.slope_origin = fit.origin;
    if (fit.average != g.stats.avg) {
      g.fit_average = fit.average;
    }
    const double own = segment_rss(p, a, b, c.shape) / variance;
    g.bits = (own + (i > 0 ? c.penalty : 0.0)) * to_bits;
    if (i > 0 && exact) {
      std::vector<std::size_t> joined = c.starts;
      joined.erase(joined.begin() + static_cast<std::ptrdiff_t>(i));
      g.gain_bits =
          (description_length(p, joined, c.shape, nats) - description_length(p, c.starts, c.shape, nats)) /
          std::numbers::ln2;
    } else if (i > 0) {
      const std::size_t before = c.starts[i - 1];
      const double joined = segment_rss(p, before, b, c.shape) / variance;
      const double apart = segment_rss(p, before, a, c.shape) / variance + own;
      g.gain_bits = (joined - apart - c.penalty) * to_bits;
    }
    groups.push_back(g);
  }
  return groups;
}

// The relative step from the end of group `before` to the start of group `after`.
double relative_step(const Group& before, const Group& after) {
  const double from = level_at_end(before);
  const double to = level_at_start(after);
  if (from == to) {
    return 0.0;
  }
  return from != 0.0 ? std::fabs((to - from) / from) : std::numeric_limits<double>::infinity();
}

// Joins neighbours whose step is below `min_magnitude`, the smallest step first, refitting
// the joined group each time: small steps in a row that add up to `min_magnitude` or more
// stay as one change. A step is judged where the data put it: a cut whose step is at least
// `min_magnitude` in the segmentation found is never joined, whatever the refits around it
// make of it. (A joined group of lines takes a small step into its slope and so ends
// nearer the next group's start: without that rule each join shrinks the next step, and a
// drifting series could lose a 3 % step to the hiding of a 1.5 % one.)
void join_small_steps(Candidate& c, std::span<const RunStats> runs, std::span<const double> cleaned,
                      const Prefix& p, double min_magnitude) {
  std::vector<std::size_t> large;  // the starts of the steps of at least min_magnitude, as found
  const std::vector<Group> found = make_groups(runs, cleaned, p, c);
  for (std::size_t i = 1; i < found.size(); ++i) {
    if (relative_step(found[i - 1], found[i]) >= min_magnitude) {
      large.push_back(found[i].start);
    }
  }
  while (c.starts.size() > 1) {
    const std::vector<Group> groups = make_groups(runs, cleaned, p, c);
    std::size_t smallest = 0;
    double smallest_step = min_magnitude;
    for (std::size_t i = 1; i < groups.size(); ++i) {
      const double step = relative_step(groups[i - 1], groups[i]);
      if (step < smallest_step && !std::binary_search(large.begin(), large.end(), groups[i].start)) {
        smallest_step = step;
        smallest = i;
      }
    }
    if (smallest == 0) {
      return;
    }
    c.starts.erase(c.starts.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
}

// The runs of group `g` of `groups` as its level at the cut on side `side` plus its residuals
// (for a level, its runs): a line's slope taken out, so that a drift is not a step.
enum class CutSide { end, start };

std::vector<double> at_cut(std::span<const RunStats> runs, const Group& g, CutSide side) {
  std::vector<double> values;
  values.reserve(g.runs);
  const double level = side == CutSide::end ? level_at_end(g) : level_at_start(g);
  for (std::size_t k = 0; k < g.runs; ++k) {
    const double offset = static_cast<double>(k);
    values.push_back(runs[g.start + k].avg - (g.slope != 0.0 ? level_at(g, offset) - level : 0.0));
  }
  return values;
}

// The evidence of each change of `groups` (all but the first) over `runs`.
std::vector<ChangeEvidence> weigh_changes(std::span<const RunStats> runs, const std::vector<Group>& groups) {
  std::vector<ChangeEvidence> evidence(groups.size());
  const std::size_t places = runs.size() > 1 ? runs.size() - 1 : 1;
  for (std::size_t i = 1; i < groups.size(); ++i) {
    evidence[i] = weigh_change(at_cut(runs, groups[i - 1], CutSide::end),
                               at_cut(runs, groups[i], CutSide::start), places);
  }
  return evidence;
}

// Joins the neighbours of every change a sheriff would not accept (change_evidence.hpp), one at
// a time and refitting, the weakest first: a level that has not held k_min_held_runs on either
// side, then the change with the largest p-value. One join changes the evidence of the changes
// either side of it (a short excursion joined to the level before it leaves a step back to
// that level that is no step), so each is weighed again.
void join_unconfirmed_changes(Candidate& c, std::span<const RunStats> runs, std::span<const double> cleaned,
                              const Prefix& p, double min_magnitude) {
  while (c.starts.size() > 1) {
    const std::vector<Group> groups = make_groups(runs, cleaned, p, c);
    const std::vector<ChangeEvidence> evidence = weigh_changes(runs, groups);
    std::size_t weakest = 0;
    for (std::size_t i = 1; i < groups.size(); ++i) {
      if (accepted(evidence[i], min_magnitude)) {
        continue;
      }
      const auto held = [&](std::size_t k) {
        return std::min(evidence[k].runs_before, evidence[k].held_runs) >= k_min_held_runs;
      };
      if (weakest == 0 || (!held(i) && held(weakest)) ||
          (held(i) == held(weakest) && evidence[i].p_value > evidence[weakest].p_value)) {
        weakest = i;
      }
    }
    if (weakest == 0) {
      return;
    }
    c.starts.erase(c.starts.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
}

// A series longer than twice this many runs has its shape chosen on this many blocks.
constexpr std::size_t k_shape_runs = 1000;

// `runs`, with each run's average from `cleaned`, merged into about k_shape_runs blocks of
// consecutive runs (the last block may be shorter): each block keeps its samples' count,
// mean and spread, so the description lengths of the blocks compare as the series' do.
std::vector<RunStats> in_blocks(std::span<const RunStats> runs, std::span<const double> cleaned) {
  const std::size_t size = (runs.size() + k_shape_runs - 1) / k_shape_runs;
  std::vector<RunStats> blocks;
  std::vector<RunStats> block;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    block.push_back(RunStats{runs[i].size, cleaned[i], runs[i].stdev});
    if (block.size() == size || i + 1 == runs.size()) {
      blocks.push_back(merge_runs(block));
      block.clear();
    }
  }
  return blocks;
}

}  // namespace

std::vector<Group> segment_runs(std::span<const RunStats> runs, const SegmentationOptions& options,
                                SegmentShape& shape) {
  shape = SegmentShape::level;
  if (runs.empty()) {
    return {};
  }
  const RunStats all = merge_runs(runs);
  const double magnitude = std::max(all.stdev, std::fabs(all.avg));
  const std::vector<double> cleaned = without_outliers(runs);
  const Prefix p = prefix_sums(runs, cleaned, all.avg, magnitude > 0 ? magnitude : 1.0);
  Candidate level;
  Candidate line;
  if (runs.size() > 2 * k_shape_runs) {
    // A long series: its shape is chosen on blocks of it, then fitted whole in that shape.
    const std::vector<RunStats> blocks = in_blocks(runs, cleaned);
    std::vector<double> block_averages;
    block_averages.reserve(blocks.size());
    for (const RunStats& block : blocks) {
      block_averages.push_back(block.avg);
    }
    const Prefix coarse = prefix_sums(blocks, block_averages, all.avg, magnitude > 0 ? magnitude : 1.0);
    const bool lines = fit_shape(coarse, SegmentShape::line, options).length <
                       fit_shape(coarse, SegmentShape::level, options).length;
    (lines ? line : level) = fit_shape(p, lines ? SegmentShape::line : SegmentShape::level, options);
  } else {
    level = fit_shape(p, SegmentShape::level, options);
    line = fit_shape(p, SegmentShape::line, options);
  }
  Candidate& chosen = line.length < level.length ? line : level;
  shape = chosen.shape;
  const bool exact = pooled_variance(p, chosen.starts, chosen.shape) <= k_exact;
  if (options.min_magnitude > 0 && !(exact && options.exact_steps_kept)) {
    join_small_steps(chosen, runs, cleaned, p, options.min_magnitude);
    if (options.changes == ChangeRule::sheriff && !exact) {
      join_unconfirmed_changes(chosen, runs, cleaned, p, options.min_magnitude);
    }
  }
  std::vector<Group> groups = make_groups(runs, cleaned, p, chosen);
  const std::vector<ChangeEvidence> evidence = weigh_changes(runs, groups);
  for (std::size_t i = 1; i < groups.size(); ++i) {
    groups[i].evidence = evidence[i];
  }
  return groups;
}

}  // namespace perfduel::trend
