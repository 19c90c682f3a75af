#include "stats/rank_sum.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace perfduel::stats {

RankSumTest rank_sum_test(std::span<const double> first, std::span<const double> second) {
  RankSumTest result;
  if (first.empty() || second.empty()) {
    return result;
  }
  // Each value with the sample it came from (0: first), in increasing order.
  std::vector<std::pair<double, int>> pooled;
  pooled.reserve(first.size() + second.size());
  for (const double x : first) {
    pooled.emplace_back(x, 0);
  }
  for (const double y : second) {
    pooled.emplace_back(y, 1);
  }
  std::sort(pooled.begin(), pooled.end());
  double first_rank_sum = 0.0;
  double tie_sum = 0.0;  // Σ (t³ − t) over the groups of t tied values
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j + 1 < pooled.size() && pooled[j + 1].first == pooled[i].first) {
      ++j;
    }
    const double rank = static_cast<double>(i + j) / 2 + 1;  // the average of ranks i + 1 … j + 1
    for (std::size_t k = i; k <= j; ++k) {
      if (pooled[k].second == 0) {
        first_rank_sum += rank;
      }
    }
    const auto t = static_cast<double>(j - i + 1);
    tie_sum += t * t * t - t;
    i = j + 1;
  }
  const auto n1 = static_cast<double>(first.size());
  const auto n2 = static_cast<double>(second.size());
  const double n = n1 + n2;
  result.u = first_rank_sum - n1 * (n1 + 1) / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - (n > 1 ? tie_sum / (n * (n - 1)) : 0.0));
  if (!(variance > 0)) {
    return result;  // every value tied
  }
  result.z = std::max(std::fabs(result.u - n1 * n2 / 2) - 0.5, 0.0) / std::sqrt(variance);
  result.p_value = std::erfc(result.z / std::numbers::sqrt2);
  return result;
}

}  // namespace perfduel::stats
