#include "stats/autocorrelation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "stats/descriptive.hpp"

namespace perfduel::stats {

namespace {
// Two-sided 95 % normal quantile for the "clearly autocorrelated" test.
constexpr double k_z95 = 1.959964;
// One-sided 95 % normal quantile for the upper bound of r1.
constexpr double k_z95_one_sided = 1.644854;
// Largest lag-1 autocorrelation the upper bound of r1 may reach for a series to count as
// independent (choose_batching). An undetected AR(1) correlation of 0.25 would make the
// interval 23 % too narrow; the bound is an upper 95 % one, so the typical error is far less.
// Measured on 4,000 A/A gates per model (docs/validation.md): 0.2 cost iid gates 103 rounds
// instead of 98; 0.3 saved 3 rounds but let AR(1) log-ratios reach 5.0 % false alarms (4.7 %).
constexpr double k_independence_bound = 0.25;
}  // namespace

double lag1_upper_bound(double r, std::size_t count) {
  return r + k_z95_one_sided / std::sqrt(static_cast<double>(count));
}

bool independence_shown(double upper) {
  return upper <= k_independence_bound;
}

double lag1_autocorrelation(std::span<const double> x) {
  if (x.size() < 3) {
    return k_nan;
  }
  // A constant series has no autocorrelation. Equal values are not always exactly equal after
  // arithmetic: the log-ratios of identical instruction counts differ from their mean by
  // rounding alone, and those residues all have one sign, so r1 would come out near
  // (n − 1)/n and trigger batching of a series that does not vary. A spread within a few
  // ulps of the values counts as constant.
  const auto [low, high] = std::minmax_element(x.begin(), x.end());
  if (*high - *low <=
      8 * std::numeric_limits<double>::epsilon() * std::max(std::abs(*low), std::abs(*high))) {
    return k_nan;
  }
  const double m = mean(x);
  double numerator = 0;
  double denominator = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double centred = x[i] - m;
    denominator += centred * centred;
    if (i + 1 < x.size()) {
      numerator += centred * (x[i + 1] - m);
    }
  }
  if (!(denominator > 0)) {
    return k_nan;
  }
  return numerator / denominator;
}

std::vector<double> batch_means(std::span<const double> x, std::size_t batch_size) {
  std::vector<double> means;
  if (batch_size == 0 || batch_size > x.size()) {
    return means;
  }
  const std::size_t count = x.size() / batch_size;
  means.reserve(count);
  for (std::size_t b = 0; b < count; ++b) {
    means.push_back(mean(x.subspan(b * batch_size, batch_size)));
  }
  return means;
}

bool clearly_autocorrelated(double r, std::size_t count, double limit) {
  if (std::isnan(r) || count == 0) {
    return false;
  }
  const double chance = k_z95 / std::sqrt(static_cast<double>(count));
  return std::abs(r) > limit && std::abs(r) > chance;
}

double ar1_batch_correlation(double rho, std::size_t batch_size) {
  if (!(rho > 0) || rho >= 1 || batch_size == 0) {
    return 0;
  }
  const double q = static_cast<double>(batch_size);
  const double rho_q = std::pow(rho, q);
  return rho * (1 - rho_q) * (1 - rho_q) / (q * (1 - rho * rho) - 2 * rho * (1 - rho_q));
}

double ar1_width_factor(double r) {
  return std::sqrt((1 + r) / (1 - r));
}

std::size_t ar1_batch_size(double rho, double limit) {
  // Negative ρ makes the plain interval conservative, so only positive ρ asks for batches.
  if (!(rho > 0) || rho >= 1) {
    return 2;
  }
  for (std::size_t q = 2; q < 100000; ++q) {
    if (ar1_batch_correlation(rho, q) <= limit) {
      return q;
    }
  }
  return 100000;
}

namespace {

// Neither clearly correlated nor clearly not: widen the plain interval as an AR(1) process at
// the upper bound `upper` of r1 would need, rather than refuse it, so that a large change can
// still be decided early (anytime mode) while the width rule waits for the bound to come down.
Batching widened_until_ruled_out(Batching result, std::size_t rounds, double upper) {
  const double rho = std::min(upper, 0.9);
  result.residual_inflation = ar1_width_factor(rho);
  result.note = fmt::format(
      "lag-1 autocorrelation {:.2f} over {} rounds: cannot yet rule out up to {:.2f}; interval widened "
      "×{:.2f} until it can",
      result.lag1, rounds, upper, result.residual_inflation);
  return result;
}

// Until batching can settle it, the unbatched interval of `rounds` rounds is widened as an
// AR(1) process at the upper bound `rho_upper` of ρ needs: enough to decide a clear change
// (anytime mode), never to stop on. `why` says what batching still waits for.
Batching provisionally_widened(Batching result, std::size_t rounds, double rho_upper,
                               const std::string& why) {
  const double rho = std::clamp(rho_upper, 0.0, 0.95);
  result.settled = false;
  result.provisional = true;
  result.batch_size = 1;
  result.batches = rounds;
  result.batch_lag1 = result.lag1;
  result.residual_inflation = ar1_width_factor(rho);
  // A negative ρ narrows the spread of a mean, so the AR(1) factor is 1 there: say so
  // rather than "widened ×1.00".
  result.note =
      result.residual_inflation > 1.005
          ? fmt::format(
                "{}; keep sampling (meanwhile the interval is widened ×{:.2f} and decides only a "
                "clear change)",
                why, result.residual_inflation)
          : fmt::format("{}; keep sampling (meanwhile the interval decides only a clear change)", why);
  return result;
}

// No feasible batch size clears the band: the dependence reaches further than `min_batches`
// batches can hold (slow drift of the ratio itself). More rounds only make the batches
// longer, so waiting for the band may never end (a 4× gzip ratio ran its 9-minute budget).
// Use the largest batches, `max_q` rounds each, and correct their interval for the correlation
// they still show, √((1 + r)/(1 − r)) with the batch means' own r1 (capped at 0.9): an honest,
// wider interval the width rule may stop on once it is narrow enough.
Batching largest_batches(Batching result, std::span<const double> x, std::size_t max_q) {
  const std::vector<double> means = batch_means(x, max_q);
  const double r = std::clamp(lag1_autocorrelation(means), 0.0, 0.9);
  result.batch_size = max_q;
  result.batches = means.size();
  result.batch_lag1 = lag1_autocorrelation(means);
  result.residual_inflation = ar1_width_factor(r);
  const auto summary = fmt::format(
      "lag-1 autocorrelation {:.2f}: even {} rounds per batch ({} batches) leave "
      "batch r1 {:.2f}; interval on those batches",
      result.lag1, max_q, means.size(), result.batch_lag1);
  // A negative batch r1 narrows the spread of their mean: nothing to widen (not "×1.00").
  result.note =
      result.residual_inflation > 1.005
          ? fmt::format("{} widened ×{:.2f} for it", summary, result.residual_inflation)
          : fmt::format("{}, not widened (a negative correlation narrows the spread of a mean)", summary);
  return result;
}

// choose_batching for a series `x` clearly autocorrelated (r1 in `result`): the smallest batch
// size, from the one an AR(1) process needs on, whose batch means' r1 is within `limit`, with at
// least `min_batches` batches; widened provisionally when the series is too short for that.
Batching batched(Batching result, std::span<const double> x, double limit, std::size_t min_batches) {
  const double n = static_cast<double>(x.size());
  // Pilot's check on the batch means alone is weak: with 20 batches their r1 has a standard
  // error of about 0.22, so a batch size that leaves most of the correlation in passes by
  // chance (16 % A/A false alarms on AR(1) log-ratios in docs/validation.md). The raw series
  // is long and its r1 precise, so start at the batch size an AR(1) process with that r1
  // needs, and let the batch-means check grow it further if the data demand it.
  // r1 is estimated, and low by about (1 + 4ρ)/n; the duel looks after every round, so
  // a batch size taken from the point estimate gets chosen at moments when r1 happens to be
  // low. Plan for the upper one-sided 95 % bound of ρ instead (Bartlett: SE ≈ √((1 − ρ²)/n)).
  const double rho_upper = std::min(
      0.99, result.lag1 + k_z95_one_sided * std::sqrt(std::max(0.0, 1 - result.lag1 * result.lag1) / n));
  const std::size_t floor_batches = std::max<std::size_t>(min_batches, 2);
  const std::size_t max_q = x.size() / floor_batches;
  if (max_q < 2) {
    return provisionally_widened(
        result, x.size(), rho_upper,
        fmt::format("lag-1 autocorrelation {:.2f} over {} rounds; batching needs at least {} rounds",
                    result.lag1, x.size(), 2 * floor_batches));
  }
  const std::size_t needed = ar1_batch_size(result.lag1 > 0 ? rho_upper : result.lag1, limit);
  if (needed > max_q) {
    return provisionally_widened(
        result, x.size(), rho_upper,
        fmt::format("lag-1 autocorrelation {:.2f}: batches of {} rounds are needed, {} "
                    "batches of them need {} rounds",
                    result.lag1, needed, floor_batches, needed * floor_batches));
  }
  for (std::size_t q = needed; q <= max_q; ++q) {
    const std::vector<double> means = batch_means(x, q);
    const double r = lag1_autocorrelation(means);
    if (std::isnan(r) || std::abs(r) <= limit) {
      result.batch_size = q;
      result.batches = means.size();
      result.batch_lag1 = r;
      const double residual = ar1_batch_correlation(result.lag1, q);
      result.residual_inflation = ar1_width_factor(residual);
      result.note = fmt::format(
          "lag-1 autocorrelation {:.2f}: batched {} rounds per batch, {} batches (batch r1 {:.2f})",
          result.lag1, q, means.size(), r);
      return result;
    }
    result.batch_lag1 = r;
  }
  return largest_batches(result, x, max_q);
}

}  // namespace

Batching choose_batching(std::span<const double> x, double limit, std::size_t min_batches) {
  Batching result;
  result.batches = x.size();
  result.lag1 = lag1_autocorrelation(x);
  result.batch_lag1 = result.lag1;
  // Undefined r1 (tiny or constant series): nothing to correct. A limit of 1 turns the check off.
  if (std::isnan(result.lag1) || limit >= 1) {
    return result;
  }
  const double upper = lag1_upper_bound(result.lag1, x.size());
  if (std::abs(result.lag1) <= limit && independence_shown(upper)) {
    return result;
  }
  const bool clearly = clearly_autocorrelated(result.lag1, x.size(), limit);
  if (!clearly) {
    if (independence_shown(upper)) {
      return result;  // outside the band, but within what an independent series shows by chance
    }
    return widened_until_ruled_out(result, x.size(), upper);
  }
  return batched(result, x, limit, min_batches);
}

}  // namespace perfduel::stats
