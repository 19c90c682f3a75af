#include "stats/estimate.hpp"

#include <cmath>
#include <optional>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "stats/autocorrelation.hpp"
#include "stats/descriptive.hpp"
#include "stats/multiple.hpp"
#include "stats/ratio.hpp"
#include "stats/robust.hpp"

namespace perfduel::stats {

namespace {

// Medians of consecutive batches, counted from the first value as in batch_means.
std::vector<double> batch_medians(std::span<const double> x, std::size_t batch_size) {
  std::vector<double> medians;
  if (batch_size == 0 || batch_size > x.size()) {
    return medians;
  }
  const std::size_t count = x.size() / batch_size;
  for (std::size_t b = 0; b < count; ++b) {
    medians.push_back(median(x.subspan(b * batch_size, batch_size)));
  }
  return medians;
}

// The values an interval is taken over: `d` itself, or, when `batching` batches, its batches
// reduced by `reduce` (batch_means, batch_medians).
std::vector<double> units_of(std::span<const double> d, const Batching& batching,
                             std::vector<double> (*reduce)(std::span<const double>, std::size_t)) {
  return batching.batch_size > 1 ? reduce(d, batching.batch_size) : std::vector<double>(d.begin(), d.end());
}

// What the values of `batching` are called in a note: "batches" or "rounds".
const char* unit_word(const Batching& batching) {
  return batching.batch_size > 1 ? "batches" : "rounds";
}

// An interval may be used once its batching has settled, or is provisional; before, the
// estimate lacks data.
EstimateStatus status_of(const Batching& batching) {
  return batching.settled || batching.provisional ? EstimateStatus::ok : EstimateStatus::insufficient_data;
}

// Shared start of the mean and median estimators: the log-ratios' lag-1 autocorrelation and
// the Pilot batching decision, recorded in `result`.
Batching apply_batching(std::span<const double> d, const EstimatorOptions& options, Estimate& result) {
  Batching batching = choose_batching(d, options.autocorrelation_limit, options.min_batches);
  result.lag1 = batching.lag1;
  result.batch_size = batching.batch_size;
  result.batches = batching.batches;
  result.note = batching.note;
  result.provisional = batching.provisional;
  return batching;
}

// The stopping allowance for an interval over `units` independent values (1 when off).
double sequential_allowance(std::size_t units, const EstimatorOptions& options) {
  return options.decision_sigma_level > 0 ? sigma_upper_bound_factor(units, options.decision_sigma_level)
                                          : 1.0;
}

// Widening a normal-theory interval by `factor` is taking it at the confidence whose normal
// quantile is `factor` times larger; the sign-test interval, which has no σ, is widened that way.
double widened_confidence(double confidence, double factor) {
  const boost::math::normal normal;
  const double z = boost::math::quantile(normal, 1.0 - (1.0 - confidence) / 2.0);
  return 1.0 - 2.0 * boost::math::cdf(boost::math::complement(normal, z * factor));
}

// The p-value that matches a `factor` times wider interval: its normal quantile shrunk by `factor`.
double widened_p_value(double p_value, double factor) {
  if (!(p_value > 0) || p_value >= 1 || factor == 1.0) {
    return p_value;
  }
  const boost::math::normal normal;
  const double z = boost::math::quantile(boost::math::complement(normal, p_value / 2.0));
  return 2.0 * boost::math::cdf(boost::math::complement(normal, z / factor));
}

// The t interval of `units` (paired log-ratios, batch means or a ratio's linearised values),
// widened by the batching's residual inflation and the stopping allowance, around `center`
// (default: the mean of `units`), with its p-value against the null band.
void settle_t_estimate(std::span<const double> units, std::optional<double> center, const Batching& batching,
                       const EstimatorOptions& options, Estimate& result) {
  const auto interval = t_interval(units, options.confidence);
  if (!interval) {
    result.note = "needs at least 2 rounds for an interval";
    return;
  }
  result.sequential_allowance = sequential_allowance(units.size(), options);
  result.spread_inflation = batching.residual_inflation * result.sequential_allowance;
  result.center = center.value_or(interval->mean);
  const double half = (interval->ci.hi - interval->mean) * result.spread_inflation;
  result.ci = {result.center - half, result.center + half};
  const double n = static_cast<double>(units.size());
  result.p_value = t_test_p_value(result.center, interval->stddev * result.spread_inflation / std::sqrt(n),
                                  n - 1.0, options.null_band);
  result.status = status_of(batching);
}

// Mean of d with a Student-t interval, on batch means when the rounds are autocorrelated
// (Pilot). The default: efficient for the near-normal log-ratios of run times.
void estimate_mean(std::span<const double> d, const EstimatorOptions& options, Estimate& result) {
  const Batching batching = apply_batching(d, options, result);
  const std::vector<double> units = units_of(d, batching, batch_means);
  settle_t_estimate(units, std::nullopt, batching, options, result);
}

// Median of d with the sign-test interval; on batch medians when autocorrelated, since the
// sign test needs independent values as much as the t interval does.
void estimate_median(std::span<const double> d, const EstimatorOptions& options, Estimate& result) {
  const Batching batching = apply_batching(d, options, result);
  const std::vector<double> units = units_of(d, batching, batch_medians);
  result.sequential_allowance = sequential_allowance(units.size(), options);
  result.spread_inflation = batching.residual_inflation * result.sequential_allowance;
  const double confidence = widened_confidence(options.confidence, result.spread_inflation);
  const auto interval = sign_test_interval(units, confidence);
  if (!interval) {
    result.center = units.empty() ? 0.0 : median(units);
    result.note = fmt::format("the sign-test interval at {:.4g} % confidence needs more than {} {}",
                              100 * confidence, units.size(), unit_word(batching));
    return;
  }
  result.center = interval->median;
  result.ci = interval->ci;
  result.p_value = widened_p_value(sign_test_p_value(units, options.null_band), result.spread_inflation);
  result.status = status_of(batching);
}

// The 20 % trimmed mean of d with Yuen's interval, on batch means when autocorrelated (as the
// mean's). Its stopping allowance and p-value use the h − 1 degrees of freedom of the kept values.
void estimate_trimmed(std::span<const double> d, const EstimatorOptions& options, Estimate& result) {
  const Batching batching = apply_batching(d, options, result);
  const std::vector<double> units = units_of(d, batching, batch_means);
  const auto interval = trimmed_mean_interval(units, k_trim, options.confidence);
  if (!interval) {
    result.center = units.empty() ? 0.0 : median(units);
    result.note =
        fmt::format("the trimmed mean's interval needs more than {} {}", units.size(), unit_word(batching));
    return;
  }
  result.sequential_allowance = sequential_allowance(interval->kept, options);
  result.spread_inflation = batching.residual_inflation * result.sequential_allowance;
  result.center = interval->center;
  const double half = (interval->ci.hi - interval->center) * result.spread_inflation;
  result.ci = {result.center - half, result.center + half};
  result.p_value = t_test_p_value(result.center, interval->standard_error * result.spread_inflation,
                                  interval->degrees_of_freedom, options.null_band);
  result.status = status_of(batching);
}

// Ratio of means with the delta method's interval (stats/ratio.hpp), for series that may hold
// zeros. Batching works on the linearised values as the mean's does on log-ratios; when it
// batches, the ratio is taken over the batched rounds only (the newest n mod q wait, as in
// batch_means), so that the centre and the batches describe the same runs.
void estimate_ratio(std::span<const double> baseline, std::span<const double> candidate,
                    const EstimatorOptions& options, Estimate& result) {
  auto ratio = ratio_of_means(baseline, candidate);
  if (!ratio) {
    result.note = ratio.error();
    return;
  }
  const Batching batching = apply_batching(ratio->influence, options, result);
  std::vector<double> units = ratio->influence;
  if (batching.batch_size > 1) {
    const std::size_t used = batching.batches * batching.batch_size;
    ratio = ratio_of_means(baseline.first(used), candidate.first(used));
    if (!ratio) {
      result.note = ratio.error();
      return;
    }
    units = batch_means(ratio->influence, batching.batch_size);
  }
  settle_t_estimate(units, ratio->log_ratio, batching, options, result);
}

void estimate_min(std::span<const double> baseline, std::span<const double> candidate,
                  std::span<const double> d, const EstimatorOptions& options, Estimate& result) {
  result.lag1 = lag1_autocorrelation(d);
  const MinEstimate m = min_estimate(baseline, candidate,
                                     {.best_of = options.min_best_of,
                                      .confidence = options.confidence,
                                      .stability_limit = options.stability_limit,
                                      .null_band = options.null_band,
                                      .min_batches = options.min_batches,
                                      .decision_sigma_level = options.decision_sigma_level});
  result.center = m.center;
  result.ci = m.ci;
  result.batch_size = m.batch_size;
  result.batches = m.batches;
  result.p_value = m.p_value;
  result.sequential_allowance = m.sequential_allowance;
  result.spread_inflation = m.sequential_allowance;
  result.note = m.note;
  switch (m.status) {
    case MinStatus::ok:
      result.status = EstimateStatus::ok;
      break;
    case MinStatus::unstable:
      result.status = EstimateStatus::unstable;
      break;
    case MinStatus::insufficient_data:
      result.status = EstimateStatus::insufficient_data;
      break;
  }
}

}  // namespace

Estimate estimate(Estimator estimator, std::span<const double> baseline, std::span<const double> candidate,
                  const EstimatorOptions& options) {
  Estimate result;
  if (estimator == Estimator::ratio) {
    result.rounds = baseline.size();
    result.batches = baseline.size();
    if (baseline.size() < 2) {
      result.note = "needs at least 2 rounds for an interval";
      return result;
    }
    estimate_ratio(baseline, candidate, options, result);
    return result;
  }
  auto d = log_ratios(baseline, candidate);
  if (!d) {
    // The caller checks values before; should one slip through, say so instead of guessing.
    result.note = d.error();
    return result;
  }
  result.rounds = d->size();
  result.batches = d->size();
  if (d->size() < 2) {
    result.center = d->empty() ? 0.0 : d.value()[0];
    result.note = "needs at least 2 rounds for an interval";
    return result;
  }
  switch (estimator) {
    case Estimator::mean:
      estimate_mean(*d, options, result);
      break;
    case Estimator::median:
      estimate_median(*d, options, result);
      break;
    case Estimator::min:
      estimate_min(baseline, candidate, *d, options, result);
      break;
    case Estimator::trimmed:
      estimate_trimmed(*d, options, result);
      break;
    case Estimator::ratio:
      break;  // handled above: it takes no log of single runs
  }
  return result;
}

}  // namespace perfduel::stats
