#include "trend/optimal_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfduel::trend {

namespace {

// The candidate starts of the last segment, as parallel arrays (the inner loop streams
// through them): the start, the optimal cost of the runs before it, and the prefix sums
// there, already divided by the noise so that the cost is in units of the variance.
struct Candidates {
  std::vector<std::size_t> start;
  std::vector<double> cost, w, s, q, t, tt, tx;

  void push(std::size_t at, double before, const Prefix& p, double inverse_sd) {
    start.push_back(at);
    cost.push_back(before);
    w.push_back(p.w[at]);
    s.push_back(p.s[at] * inverse_sd);
    q.push_back(p.q[at] * inverse_sd * inverse_sd);
    t.push_back(p.t[at]);
    tt.push_back(p.tt[at]);
    tx.push_back(p.tx[at] * inverse_sd);
  }

  // Keeps the candidates where `keep` is non-zero, in order.
  void keep_if(const std::vector<char>& keep) {
    std::size_t out = 0;
    for (std::size_t j = 0; j < start.size(); ++j) {
      if (keep[j] == 0) {
        continue;
      }
      start[out] = start[j];
      for (auto* column : {&cost, &w, &s, &q, &t, &tt, &tx}) {
        (*column)[out] = (*column)[j];
      }
      ++out;
    }
    start.resize(out);
    for (auto* column : {&cost, &w, &s, &q, &t, &tt, &tx}) {
      column->resize(out);
    }
  }
};

// The sums of the runs up to `end`, divided by the noise as the candidates' are.
struct EndSums {
  double w, s, q, t, tt, tx;
};

// cost + rss of a level from each of the first `count` candidates to the end. Written for
// the compiler to vectorise: no branch but the loop's, one division.
void level_totals(const Candidates& c, std::size_t count, const EndSums& e, double* total) {
  const double* cost = c.cost.data();
  const double* w = c.w.data();
  const double* s = c.s.data();
  const double* q = c.q.data();
  for (std::size_t j = 0; j < count; ++j) {
    const double sw = e.w - w[j];
    const double ss = e.s - s[j];
    const double rss = (e.q - q[j]) - ss * ss / sw;
    total[j] = cost[j] + (rss > 0.0 ? rss : 0.0);
  }
}

// The same for lines: the level's rss less what the slope explains. Every candidate spans
// at least three runs, so the spread of the run index is positive.
void line_totals(const Candidates& c, std::size_t count, const EndSums& e, double* total) {
  const double* cost = c.cost.data();
  const double* w = c.w.data();
  const double* s = c.s.data();
  const double* q = c.q.data();
  const double* t = c.t.data();
  const double* tt = c.tt.data();
  const double* tx = c.tx.data();
  for (std::size_t j = 0; j < count; ++j) {
    const double inverse_w = 1.0 / (e.w - w[j]);
    const double ss = e.s - s[j];
    const double st = e.t - t[j];
    const double spread = (e.tt - tt[j]) - st * st * inverse_w;
    const double covariance = (e.tx - tx[j]) - st * ss * inverse_w;
    const double rss = (e.q - q[j]) - ss * ss * inverse_w - covariance * covariance / spread;
    total[j] = cost[j] + (rss > 0.0 ? rss : 0.0);
  }
}

}  // namespace

Prefix prefix_sums(std::span<const RunStats> runs, std::span<const double> averages, double center,
                   double scale) {
  Prefix p;
  const double time_center = static_cast<double>(runs.size() - 1) / 2;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto n = static_cast<double>(runs[i].size);
    const double avg = (averages[i] - center) / scale;
    const double stdev = runs[i].stdev / scale;
    const double time = static_cast<double>(i) - time_center;
    p.w.push_back(p.w.back() + n);
    p.s.push_back(p.s.back() + n * avg);
    p.q.push_back(p.q.back() + n * (stdev * stdev + avg * avg));
    p.t.push_back(p.t.back() + n * time);
    p.tt.push_back(p.tt.back() + n * time * time);
    p.tx.push_back(p.tx.back() + n * time * avg);
  }
  return p;
}

double segment_rss(const Prefix& p, std::size_t a, std::size_t b, SegmentShape shape) {
  const double w = p.w[b] - p.w[a];
  const double s = p.s[b] - p.s[a];
  const double level = (p.q[b] - p.q[a]) - s * s / w;
  if (shape == SegmentShape::level) {
    return std::max(level, 0.0);
  }
  const double t = p.t[b] - p.t[a];
  const double spread = (p.tt[b] - p.tt[a]) - t * t / w;
  if (!(spread > 1e-9 * w)) {
    return std::max(level, 0.0);
  }
  const double covariance = (p.tx[b] - p.tx[a]) - t * s / w;
  return std::max(level - covariance * covariance / spread, 0.0);
}

std::size_t min_runs(SegmentShape shape) {
  return shape == SegmentShape::level ? 1 : 3;
}

std::vector<std::size_t> optimal_starts(const Prefix& p, SegmentShape shape, double variance,
                                        double penalty) {
  const std::size_t count = p.runs();
  const std::size_t shortest = min_runs(shape);
  const double inverse_sd = 1.0 / std::sqrt(variance);
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<double> best(count + 1, infinity);
  std::vector<std::size_t> last_start(count + 1, 0);
  best[0] = -penalty;
  Candidates candidates;
  candidates.push(0, best[0], p, inverse_sd);
  std::vector<double> total(count + 1);
  std::vector<char> keep;
  for (std::size_t end = shortest; end <= count; ++end) {
    // Candidates are in increasing order of start; those `shortest` runs back or more are eligible.
    std::size_t eligible = candidates.start.size();
    while (eligible > 0 && candidates.start[eligible - 1] + shortest > end) {
      --eligible;
    }
    const EndSums e{p.w[end],  p.s[end] * inverse_sd, p.q[end] * inverse_sd * inverse_sd, p.t[end],
                    p.tt[end], p.tx[end] * inverse_sd};
    if (shape == SegmentShape::level) {
      level_totals(candidates, eligible, e, total.data());
    } else {
      line_totals(candidates, eligible, e, total.data());
    }
    const auto first = total.begin();
    const auto winner = std::min_element(first, first + static_cast<std::ptrdiff_t>(eligible));
    if (eligible > 0) {
      best[end] = *winner + penalty;
      last_start[end] = candidates.start[static_cast<std::size_t>(winner - first)];
      keep.assign(candidates.start.size(), 1);
      bool pruned = false;
      for (std::size_t j = 0; j < eligible; ++j) {
        keep[j] = total[j] <= best[end] ? 1 : 0;
        pruned = pruned || keep[j] == 0;
      }
      if (pruned) {
        candidates.keep_if(keep);
      }
    }
    if (end + shortest <= count && std::isfinite(best[end])) {
      candidates.push(end, best[end], p, inverse_sd);
    }
  }
  std::vector<std::size_t> starts;
  for (std::size_t end = count; end > 0; end = last_start[end]) {
    starts.push_back(last_start[end]);
  }
  std::reverse(starts.begin(), starts.end());
  return starts;
}

}  // namespace perfduel::trend
