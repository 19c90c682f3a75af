#include "stats/noise.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/autocorrelation.hpp"
#include "stats/paired.hpp"
#include "stats/robust.hpp"

namespace perfduel::stats {

namespace {

// The σ levels of the duel's allowances (duel/settling.cpp): the stopping check takes σ at its
// upper 95 % bound, the deciding interval at its upper 75 % bound.
constexpr double k_noise_stopping_level = 0.95;
constexpr double k_noise_decision_level = 0.75;
// The median of |N(0, 1)|: the typical distance of a no-change estimate from 0, in standard errors.
constexpr double k_median_abs_normal = 0.674490;
// The median's asymptotic standard error over the mean's, for normal data: √(π/2).
constexpr double k_median_efficiency = 1.253314;

// The independent units behind an interval of `rounds` rounds in batches of `batch_size`.
std::size_t noise_units(std::size_t rounds, std::size_t batch_size) {
  return std::max<std::size_t>(rounds / std::max<std::size_t>(batch_size, 1), 2);
}

// The standard error's σ·w(n)/√n part of a projection, or NaN.
double spread_at(const RoundNoise& noise, std::size_t rounds) {
  const double widening =
      noise.correlated ? 1.0 : independence_widening(noise.lag1, rounds, noise.autocorrelation_limit);
  return noise.sigma * widening / std::sqrt(static_cast<double>(std::max<std::size_t>(rounds, 1)));
}

// The first n in [low, k_max_projected_rounds] at which `settles(n)` holds, assuming it keeps
// holding from there on (each projection shrinks with n); infinity when it never does.
template <typename Settles>
double first_settling_round(std::size_t low, const Settles& settles) {
  auto high = static_cast<std::size_t>(k_max_projected_rounds);
  if (!settles(high)) {
    return std::numeric_limits<double>::infinity();
  }
  if (settles(low)) {
    return static_cast<double>(low);
  }
  while (high - low > 1) {  // settles(high), !settles(low)
    const std::size_t mid = low + (high - low) / 2;
    (settles(mid) ? high : low) = mid;
  }
  return static_cast<double>(high);
}

}  // namespace

RoundNoise round_noise(std::span<const double> d, Estimator estimator, double autocorrelation_limit,
                       std::size_t min_batches) {
  RoundNoise noise;
  noise.rounds = d.size();
  noise.autocorrelation_limit = autocorrelation_limit;
  if (d.size() < 3) {
    return noise;
  }
  const double plain = stddev(d);
  double sigma = plain;
  if (estimator == Estimator::trimmed) {
    if (const auto trimmed = trimmed_mean_interval(d, k_trim, 0.95)) {
      sigma = trimmed->standard_error * std::sqrt(static_cast<double>(d.size()));
    }
  } else if (estimator == Estimator::median) {
    sigma = plain * k_median_efficiency;
  }
  const Batching batching = choose_batching(d, autocorrelation_limit, min_batches);
  noise.lag1 = batching.lag1;
  noise.correlated = clearly_autocorrelated(batching.lag1, d.size(), autocorrelation_limit);
  if (noise.correlated && plain > 0) {
    // The long-run σ: the batch means' spread scaled to one round, with the correlation Pilot's
    // band leaves in them; while batching is not yet possible, the AR(1) factor at r1.
    double long_run = ar1_width_factor(std::clamp(batching.lag1, 0.0, 0.9));
    if (batching.batch_size > 1) {
      const auto means = batch_means(d, batching.batch_size);
      long_run = stddev(means) * std::sqrt(static_cast<double>(batching.batch_size)) / plain *
                 batching.residual_inflation;
      noise.batch_size = batching.batch_size;
    }
    sigma *= std::max(long_run, 1.0);
  }
  noise.sigma = sigma;
  return noise;
}

double independence_widening(double lag1, std::size_t rounds, double limit) {
  if (std::isnan(lag1) || limit >= 1 || rounds == 0) {
    return 1.0;
  }
  const double upper = lag1_upper_bound(lag1, rounds);
  return independence_shown(upper) ? 1.0 : ar1_width_factor(std::min(upper, 0.9));
}

double projected_width(const RoundNoise& noise, std::size_t rounds, double level) {
  const std::size_t units = noise_units(rounds, noise.batch_size);
  const double t = student_t_quantile(1 - (1 - level) / 2, static_cast<double>(units - 1));
  return std::expm1(2 * t * spread_at(noise, rounds) *
                    sigma_upper_bound_factor(units, k_noise_stopping_level));
}

double projected_reach(const RoundNoise& noise, std::size_t rounds, double level) {
  const std::size_t units = noise_units(rounds, noise.batch_size);
  const double t = student_t_quantile(1 - (1 - level) / 2, static_cast<double>(units - 1));
  const double spread = spread_at(noise, rounds);
  const double plain = noise.sigma / std::sqrt(static_cast<double>(std::max<std::size_t>(rounds, 1)));
  return t * spread * sigma_upper_bound_factor(units, k_noise_decision_level) + k_median_abs_normal * plain;
}

double rounds_to_settle(const RoundNoise& noise, double threshold, double tolerance,
                        const SettleLevels& levels) {
  if (std::isnan(noise.sigma)) {
    return k_nan;
  }
  const auto low = static_cast<std::size_t>(std::max(levels.min_rounds, 3));
  if (noise.sigma <= 0) {
    return static_cast<double>(low);
  }
  const double by_width = first_settling_round(
      low, [&](std::size_t n) { return projected_width(noise, n, levels.width_level) <= threshold; });
  if (!(levels.pass_level < levels.width_level) || tolerance <= 0) {
    return by_width;
  }
  const double edge = std::log1p(tolerance);
  const double by_band = first_settling_round(
      low, [&](std::size_t n) { return projected_reach(noise, n, levels.pass_level) <= edge; });
  return std::min(by_width, by_band);
}

double threshold_for_rounds(const RoundNoise& noise, double rounds, double tolerance_share,
                            const SettleLevels& levels) {
  if (std::isnan(noise.sigma)) {
    return k_nan;
  }
  if (noise.sigma <= 0) {
    return 0;
  }
  const auto n =
      static_cast<std::size_t>(std::max(rounds, static_cast<double>(std::max(levels.min_rounds, 3))));
  const double by_width = projected_width(noise, n, levels.width_level);
  if (!(levels.pass_level < levels.width_level) || tolerance_share <= 0) {
    return by_width;
  }
  return std::min(by_width, std::expm1(projected_reach(noise, n, levels.pass_level)) / tolerance_share);
}

double readable_fraction(double fraction) {
  if (!(fraction > 0) || !std::isfinite(fraction)) {
    return fraction;
  }
  const double step = fraction < 0.01  ? 0.001
                      : fraction < 0.1 ? 0.005
                      : fraction < 0.3 ? 0.01
                      : fraction < 1   ? 0.05
                                       : 0.1;
  // A hair below a step is that step, not the next (0.05 computed as 0.0500000001).
  return std::ceil(fraction / step - 1e-9) * step;
}

}  // namespace perfduel::stats
