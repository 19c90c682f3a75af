#pragma once

#include <cstddef>
#include <span>
#include <vector>

// How well predicted change points match change points that people marked, by the two
// measures of the Turing Change Point Detection Benchmark (van den Burg and Williams 2020):
// F1 with a margin, and segmentation covering. Used to score the trend grouping on labelled
// series (tools/bench/trend_score.sh); any grouping's group starts can be scored.
namespace perfduel::trend {

// Change points: 0-based indices of the first point of each new segment.
using ChangePoints = std::vector<std::size_t>;

struct F1Score {
  double f1 = 0.0;
  double precision = 0.0;
  double recall = 0.0;
};

// How many points of `truth`, visited in increasing order, each take the nearest unused
// point of `predicted` within `margin` (the smaller on a tie).
std::size_t matched_count(std::span<const std::size_t> truth, std::span<const std::size_t> predicted,
                          std::size_t margin);

// F1 of `predicted` against the change points of each annotator in `annotations`, with
// `margin`: index 0 counts as a change in every set; precision is against the union of the
// annotators' points, recall the mean over annotators. Fails (throws std::invalid_argument)
// without annotators. The benchmark visits true points in Python's set order; here in
// increasing order (its `--ascending`), which differs in rare ties only.
F1Score f1_score(std::span<const ChangePoints> annotations, const ChangePoints& predicted,
                 std::size_t margin = 5);

// The mean over `annotations` of how well the segments cut by `predicted` cover each
// annotator's segments of a series of `length` points: Σ |A| · max_B Jaccard(A, B) / length.
// Points at 0 or at or past `length`, and repeats, cut nothing.
double covering(std::span<const ChangePoints> annotations, const ChangePoints& predicted, std::size_t length);

}  // namespace perfduel::trend
