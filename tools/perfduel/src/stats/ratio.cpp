#include "stats/ratio.hpp"

#include <cmath>

#include <fmt/format.h>

namespace perfduel::stats {

util::Expected<RatioOfMeans> ratio_of_means(std::span<const double> baseline,
                                            std::span<const double> candidate) {
  using Result = util::Expected<RatioOfMeans>;
  if (baseline.size() != candidate.size()) {
    return Result::failure(
        fmt::format("{} baseline values but {} candidate values", baseline.size(), candidate.size()));
  }
  double sum_a = 0;
  double sum_b = 0;
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const double a = baseline[i];
    const double b = candidate[i];
    if (!(a >= 0) || !(b >= 0) || !std::isfinite(a) || !std::isfinite(b)) {
      return Result::failure(fmt::format(
          "round {}: baseline {} and candidate {} must both be zero or positive for a ratio of means", i + 1,
          a, b));
    }
    sum_a += a;
    sum_b += b;
  }
  if (!(sum_a > 0) || !(sum_b > 0)) {
    return Result::failure(
        fmt::format("every {} value is 0: no ratio of means exists", sum_a > 0 ? "candidate" : "baseline"));
  }
  const double n = static_cast<double>(baseline.size());
  const double mean_a = sum_a / n;
  const double mean_b = sum_b / n;
  RatioOfMeans result;
  result.log_ratio = std::log(mean_b / mean_a);
  result.influence.reserve(baseline.size());
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    result.influence.push_back(candidate[i] / mean_b - baseline[i] / mean_a);
  }
  return result;
}

}  // namespace perfduel::stats
