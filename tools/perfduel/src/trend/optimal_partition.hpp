#pragma once

// Internal to the segments grouping (segmentation.hpp): least squares over prefix sums and
// the optimal partition of a series under a cost per cut.

#include <cstddef>
#include <span>
#include <vector>

#include "trend/jumpavg.hpp"
#include "trend/segmentation.hpp"

namespace perfduel::trend {

// Prefix sums over runs of the weight (samples), the values, their squares, the run index,
// its square and its product with the values. Values are centred and divided by a scale,
// the run index centred, so that the differences of the sums keep their digits.
struct Prefix {
  std::vector<double> w{0.0};
  std::vector<double> s{0.0};
  std::vector<double> q{0.0};
  std::vector<double> t{0.0};
  std::vector<double> tt{0.0};
  std::vector<double> tx{0.0};

  std::size_t runs() const { return w.size() - 1; }
};

// The prefix sums of `runs` with each run's average replaced by `averages` (the same count).
Prefix prefix_sums(std::span<const RunStats> runs, std::span<const double> averages, double center,
                   double scale);

// The residual sum of squares of runs [a, b) of `p` around their mean, or around their
// least-squares line for `shape` line (the mean when all their samples share one run).
double segment_rss(const Prefix& p, std::size_t a, std::size_t b, SegmentShape shape);

// The shortest segment of `shape`, in runs: a line through two runs fits them exactly.
std::size_t min_runs(SegmentShape shape);

// The starts of the segments (the first is 0) of the partition of all runs of `p` that
// minimises the sum of its segments' rss divided by `variance` plus `penalty` per cut.
// Exact (optimal partitioning), pruned as PELT (Killick, Fearnhead and Eckley 2012): a
// start whose cost to here already exceeds the optimum can never begin the last segment of
// an optimum, since a segment's rss only grows as it grows.
std::vector<std::size_t> optimal_starts(const Prefix& p, SegmentShape shape, double variance, double penalty);

}  // namespace perfduel::trend
