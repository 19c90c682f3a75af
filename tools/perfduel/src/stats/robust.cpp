#include "stats/robust.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <fmt/format.h>

#include "stats/descriptive.hpp"
#include "stats/multiple.hpp"
#include "stats/welch.hpp"

namespace perfduel::stats {

namespace {

double binomial_half_cdf(std::size_t trials, std::size_t successes) {
  const boost::math::binomial_distribution<double> distribution(static_cast<double>(trials), 0.5);
  return boost::math::cdf(distribution, static_cast<double>(successes));
}

// Significance level of the stability check's two-sample test: strict, because refusing a
// verdict on a stable machine is costly and a real change of state shows up clearly.
constexpr double k_stability_alpha = 0.01;

// Mean of the `k` smallest values of `x`.
double mean_of_best(std::span<const double> x, std::size_t k) {
  std::vector<double> sorted(x.begin(), x.end());
  std::partial_sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
  return mean(std::span<const double>(sorted.data(), k));
}

}  // namespace

std::optional<OrderStatisticRanks> sign_test_ranks(std::size_t n, double confidence) {
  const double tail = (1.0 - confidence) / 2.0;
  if (n == 0 || binomial_half_cdf(n, 0) > tail) {
    return std::nullopt;
  }
  // Start near the normal approximation n/2 − z·√n/2, then walk to the exact rank, so the
  // search costs a few CDF evaluations instead of n/2.
  const double nd = static_cast<double>(n);
  const double guess = nd / 2.0 - 2.0 * std::sqrt(nd) / 2.0;
  auto j = static_cast<std::size_t>(std::clamp(std::floor(guess), 0.0, nd / 2.0));
  while (j > 0 && binomial_half_cdf(n, j) > tail) {
    --j;
  }
  while (j + 1 < n && binomial_half_cdf(n, j + 1) <= tail) {
    ++j;
  }
  OrderStatisticRanks ranks;
  ranks.lower = j + 1;
  ranks.upper = n - j;
  ranks.coverage = 1.0 - 2.0 * binomial_half_cdf(n, j);
  return ranks;
}

std::optional<MedianInterval> sign_test_interval(std::span<const double> x, double confidence) {
  const auto ranks = sign_test_ranks(x.size(), confidence);
  if (!ranks) {
    return std::nullopt;
  }
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  MedianInterval result;
  result.n = x.size();
  result.median = median(x);
  result.ci = {sorted[ranks->lower - 1], sorted[ranks->upper - 1]};
  result.coverage = ranks->coverage;
  return result;
}

double sign_test_p_value(std::span<const double> x, Interval band) {
  if (x.empty()) {
    return 1.0;
  }
  const double m = median(x);
  if (band.contains(m)) {
    return 1.0;
  }
  const double edge = m > band.hi ? band.hi : band.lo;
  std::size_t above = 0;
  std::size_t below = 0;
  for (const double v : x) {
    above += v > edge ? 1 : 0;
    below += v < edge ? 1 : 0;
  }
  const std::size_t trials = above + below;
  if (trials == 0) {
    return 1.0;
  }
  // The count on the band's side of the edge is the small one; its lower tail is the p-value.
  const std::size_t inside_count = m > band.hi ? below : above;
  return std::min(1.0, 2.0 * binomial_half_cdf(trials, inside_count));
}

std::optional<TrimmedInterval> trimmed_mean_interval(std::span<const double> x, double trim,
                                                     double confidence) {
  const std::size_t n = x.size();
  const auto g = static_cast<std::size_t>(std::floor(std::clamp(trim, 0.0, 0.49) * static_cast<double>(n)));
  if (n < 2 * g + 2) {
    return std::nullopt;
  }
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t h = n - 2 * g;
  const std::span<const double> kept(sorted.data() + g, h);
  std::vector<double> winsorized = sorted;
  std::fill(winsorized.begin(), winsorized.begin() + static_cast<std::ptrdiff_t>(g), sorted[g]);
  std::fill(winsorized.end() - static_cast<std::ptrdiff_t>(g), winsorized.end(), sorted[n - g - 1]);
  const double s_w = stddev(winsorized);
  const double hd = static_cast<double>(h);
  TrimmedInterval result;
  result.n = n;
  result.kept = h;
  result.center = mean(kept);
  result.standard_error = s_w * std::sqrt((static_cast<double>(n) - 1.0) / (hd * (hd - 1.0)));
  result.degrees_of_freedom = hd - 1.0;
  const double half =
      student_t_quantile(1.0 - (1.0 - confidence) / 2.0, result.degrees_of_freedom) * result.standard_error;
  result.ci = {result.center - half, result.center + half};
  return result;
}

MinEstimate min_estimate(std::span<const double> baseline, std::span<const double> candidate,
                         const MinOptions& options) {
  MinEstimate result;
  const std::size_t k = std::max<std::size_t>(options.best_of, 1);
  const std::size_t q = 2 * k;
  const std::size_t n = std::min(baseline.size(), candidate.size());
  result.batch_size = q;
  result.batches = n / q;
  const std::size_t needed = std::max<std::size_t>(options.min_batches, 2);
  if (result.batches < needed) {
    result.note =
        fmt::format("the min estimator needs at least {} rounds ({} batches of {})", needed * q, needed, q);
    return result;
  }
  std::vector<double> ratios;
  ratios.reserve(result.batches);
  for (std::size_t b = 0; b < result.batches; ++b) {
    const std::size_t start = b * q;  // the newest n mod q rounds wait for their batch
    const double a = mean_of_best(baseline.subspan(start, q), k);
    const double c = mean_of_best(candidate.subspan(start, q), k);
    ratios.push_back(std::log(c / a));
  }
  const auto interval = t_interval(ratios, options.confidence);
  result.sequential_allowance = options.decision_sigma_level > 0
                                    ? sigma_upper_bound_factor(result.batches, options.decision_sigma_level)
                                    : 1.0;
  result.center = interval->mean;
  const double half_width = (interval->ci.hi - interval->mean) * result.sequential_allowance;
  result.ci = {result.center - half_width, result.center + half_width};
  const double batches = static_cast<double>(result.batches);
  result.p_value =
      t_test_p_value(result.center, interval->stddev * result.sequential_allowance / std::sqrt(batches),
                     batches - 1.0, options.null_band);
  result.status = MinStatus::ok;

  const std::size_t half = result.batches / 2;
  if (half >= 2 && result.batches - half >= 2) {
    const std::span<const double> all(ratios);
    const auto first = all.first(half);
    const auto second = all.subspan(half);
    result.halves_gap = std::expm1(std::abs(mean(second) - mean(first)));
    const auto test = welch(first, second, 1.0 - k_stability_alpha);
    if (result.halves_gap > options.stability_limit && test && test->p_value < k_stability_alpha) {
      result.status = MinStatus::unstable;
      result.note = fmt::format(
          "unstable: the min estimate moved by {:.1f} % between the first and second half of the duel "
          "(limit {:.1f} %); the machine changed state while measuring. Quiet the machine, pin CPUs, add "
          "warm-up rounds, or use the `mean` estimator",
          100 * result.halves_gap, 100 * options.stability_limit);
    }
  }
  return result;
}

}  // namespace perfduel::stats
