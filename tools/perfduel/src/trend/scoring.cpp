#include "trend/scoring.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace perfduel::trend {

namespace {

// `points` with 0 added, sorted, each once.
std::vector<std::size_t> with_zero(const ChangePoints& points) {
  std::set<std::size_t> set(points.begin(), points.end());
  set.insert(0);
  return {set.begin(), set.end()};
}

using Segments = std::vector<std::pair<std::size_t, std::size_t>>;

// The segments [begin, end) that `points` cut 0..length-1 into.
Segments segments_of(const ChangePoints& points, std::size_t length) {
  std::set<std::size_t> cuts;
  for (const std::size_t p : points) {
    if (p > 0 && p < length) {
      cuts.insert(p);
    }
  }
  Segments segments;
  std::size_t begin = 0;
  for (const std::size_t cut : cuts) {
    segments.emplace_back(begin, cut);
    begin = cut;
  }
  segments.emplace_back(begin, length);
  return segments;
}

// Covering of `truth` by `predicted` (both sorted and contiguous), over `length` points.
double cover_one(const Segments& truth, const Segments& predicted, std::size_t length) {
  double total = 0.0;
  std::size_t first = 0;
  for (const auto& [a0, a1] : truth) {
    while (first < predicted.size() && predicted[first].second <= a0) {
      ++first;
    }
    double best = 0.0;
    for (std::size_t k = first; k < predicted.size() && predicted[k].first < a1; ++k) {
      const auto [b0, b1] = predicted[k];
      const std::size_t overlap = std::min(a1, b1) - std::max(a0, b0);
      const std::size_t both = (a1 - a0) + (b1 - b0) - overlap;
      best = std::max(best, static_cast<double>(overlap) / static_cast<double>(both));
    }
    total += static_cast<double>(a1 - a0) * best;
  }
  return total / static_cast<double>(length);
}

}  // namespace

std::size_t matched_count(std::span<const std::size_t> truth, std::span<const std::size_t> predicted,
                          std::size_t margin) {
  std::vector<std::size_t> unused(predicted.begin(), predicted.end());
  std::sort(unused.begin(), unused.end());
  unused.erase(std::unique(unused.begin(), unused.end()), unused.end());
  std::size_t count = 0;
  for (const std::size_t tau : truth) {
    auto best = unused.end();
    std::size_t best_distance = 0;
    for (auto it = unused.begin(); it != unused.end(); ++it) {
      const std::size_t distance = *it > tau ? *it - tau : tau - *it;
      if (distance > margin) {
        if (*it > tau) {
          break;
        }
        continue;
      }
      if (best == unused.end() || distance < best_distance) {
        best = it;
        best_distance = distance;
      }
    }
    if (best != unused.end()) {
      unused.erase(best);
      ++count;
    }
  }
  return count;
}

F1Score f1_score(std::span<const ChangePoints> annotations, const ChangePoints& predicted,
                 std::size_t margin) {
  if (annotations.empty()) {
    throw std::invalid_argument("no annotators");
  }
  std::set<std::size_t> union_set;
  double recall_sum = 0.0;
  const std::vector<std::size_t> x = with_zero(predicted);
  for (const ChangePoints& annotator : annotations) {
    const std::vector<std::size_t> truth = with_zero(annotator);
    union_set.insert(truth.begin(), truth.end());
    recall_sum += static_cast<double>(matched_count(truth, x, margin)) / static_cast<double>(truth.size());
  }
  const std::vector<std::size_t> all(union_set.begin(), union_set.end());
  F1Score score;
  score.precision = static_cast<double>(matched_count(all, x, margin)) / static_cast<double>(x.size());
  score.recall = recall_sum / static_cast<double>(annotations.size());
  // Index 0 always matches, so precision and recall are both above 0.
  score.f1 = 2 * score.precision * score.recall / (score.precision + score.recall);
  return score;
}

double covering(std::span<const ChangePoints> annotations, const ChangePoints& predicted,
                std::size_t length) {
  if (annotations.empty()) {
    throw std::invalid_argument("no annotators");
  }
  if (length == 0) {
    return 1.0;
  }
  const Segments mine = segments_of(predicted, length);
  double sum = 0.0;
  for (const ChangePoints& annotator : annotations) {
    sum += cover_one(segments_of(annotator, length), mine, length);
  }
  return sum / static_cast<double>(annotations.size());
}

}  // namespace perfduel::trend
