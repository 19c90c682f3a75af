#include "duel/settling.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "duel/projection.hpp"
#include "duel/verdict.hpp"
#include "stats/autocorrelation.hpp"
#include "stats/descriptive.hpp"
#include "stats/sequential.hpp"
#include "stats/sign_sequence.hpp"

namespace perfduel {

namespace {

// Chow & Robbins (1965): stopping the first time the interval t·s/√n is narrow enough
// favours moments when s happens to be low, so the interval at the stop covers less than its
// nominal level (93.5 % instead of 95 % on iid noise, docs/validation.md). Two allowances, each
// a factor on σ (stats::sigma_upper_bound_factor over the k independent units):
// - The stopping check judges the width with σ at its upper 95 % bound, so that when the duel
//   stops depends mostly on how many rounds there are and little on a lucky s.
// - The interval that decides and is reported takes σ at its upper 75 % bound (×1.05 at 90
//   rounds; the estimators apply it through EstimatorOptions::decision_sigma_level).
// Measured on 10,000 A/A gates per noise model (docs/validation.md): the stopping allowance
// alone left iid at 5.3 % and bimodal at 5.7 % false alarms; with both, every model is under
// 5.5 % at the same number of rounds. The 50 % bound was too little (bimodal 5.6 %).
// The median's sign-test interval moves in steps of one order statistic, which leaves the
// width rule more lucky moments to stop on: at the 75 % bound its false alarms were 5.6 %
// (iid) and 5.8 % (drift), at the 90 % bound 4.3 % and 5.1 % (10,000 gates each).
constexpr double k_stopping_sigma_level = 0.95;
constexpr double k_decision_sigma_level = 0.75;
constexpr double k_median_decision_sigma_level = 0.9;

// The burn-in of a metric's confidence sequence, in the units it runs over: rounds, or batches
// once the log-ratios needed batching.
int sequence_burn_in(const Config& config, int burn_in_rounds, const stats::Estimate& estimate) {
  return std::max(estimate.batch_size > 1 ? config.min_batches : burn_in_rounds, 2);
}

// The asymptotic confidence sequence (stats/sequential.hpp) of a `mean` metric at `confidence`,
// in log-ratio space, or nullopt before its burn-in. It stays valid however often it is looked
// at, so the duel may stop the moment it leaves (or, with a tolerance, lies inside) the band.
// Burn-in and tuning point are the minimum rounds: before them nothing is decided anyway.
// When the log-ratios needed batching, the sequence runs over the batch means (burn-in: the
// minimum batches); this is approximate, since batch boundaries move as rounds arrive. The
// residual-correlation factor of the batching decision (and, while batching is not yet
// possible, the AR(1) widening at the upper bound of r1) applies to the sequence as to the
// interval; the stopping allowance does not (a sequence needs none).
std::optional<stats::Interval> confidence_sequence(const Config& config, int burn_in_rounds,
                                                   const stats::Estimate& estimate,
                                                   const std::vector<double>& a, const std::vector<double>& b,
                                                   double confidence) {
  const auto d = stats::log_ratios(a, b);
  if (!d) {
    return std::nullopt;
  }
  const std::vector<double> units =
      estimate.batch_size > 1 ? stats::batch_means(*d, estimate.batch_size) : *d;
  const auto burn_in = static_cast<std::size_t>(sequence_burn_in(config, burn_in_rounds, estimate));
  const auto sequence =
      stats::asymptotic_confidence_sequence(units, confidence, burn_in, static_cast<double>(burn_in));
  if (!sequence) {
    return std::nullopt;
  }
  const double inflation = estimate.spread_inflation / estimate.sequential_allowance;
  const double half = (sequence->ci.hi - sequence->center) * inflation;
  return stats::Interval{sequence->center - half, sequence->center + half};
}

// Anytime mode: the confidence sequence at the metric's full level replaces the fixed-sample
// interval. The `median` and `min` estimators keep their fixed-sample intervals (there is no
// confidence sequence for them here), which the note says.
void apply_anytime(const Config& config, int burn_in_rounds, MetricResult& result,
                   const std::vector<double>& a, const std::vector<double>& b) {
  auto& estimate = result.estimate;
  if (result.estimator != Estimator::mean) {
    estimate.note +=
        std::string(estimate.note.empty() ? "" : "; ") +
        "anytime stopping uses the confidence sequence of the mean only; this interval is fixed-sample";
    return;
  }
  if (estimate.status != stats::EstimateStatus::ok) {
    return;
  }
  const auto sequence = confidence_sequence(config, burn_in_rounds, estimate, a, b, result.confidence);
  if (!sequence) {
    estimate.status = stats::EstimateStatus::insufficient_data;
    estimate.note = fmt::format("anytime: burn-in of {} {} not reached",
                                sequence_burn_in(config, burn_in_rounds, estimate),
                                estimate.batch_size > 1 ? "batches" : "rounds");
    return;
  }
  estimate.spread_inflation /= estimate.sequential_allowance;
  estimate.sequential_allowance = 1.0;
  estimate.ci = *sequence;
}

// The estimator settings of one metric at interval level `confidence`.
stats::EstimatorOptions estimator_options(const Config& config, const MetricSpec& spec, Estimator estimator,
                                          double confidence) {
  stats::EstimatorOptions options;
  options.confidence = confidence;
  options.autocorrelation_limit = config.autocorrelation_limit;
  options.min_batches = static_cast<std::size_t>(config.min_batches);
  options.min_best_of = static_cast<std::size_t>(config.min_best_of);
  options.stability_limit = config.stability_limit;
  options.null_band = {std::log1p(-std::min(spec.tolerance, 0.999)), std::log1p(spec.tolerance)};
  options.decision_sigma_level =
      estimator == Estimator::median ? k_median_decision_sigma_level : k_decision_sigma_level;
  return options;
}

// The claim of a pass, "every gated metric lies within its tolerance band", holds when each
// metric is shown inside its band at level 1 − α: it is an intersection–union test (Berger
// 1982; for one metric, Schuirmann's two one-sided tests), which needs no correction for the
// number of metrics, unlike the claim "some metric regressed" (Bonferroni, 1 − α/m). So a
// metric of several may settle as no change as soon as its uncorrected interval lies inside
// ±tolerance, long before its Bonferroni interval is as narrow as the threshold. Its regression
// or improvement still needs the Bonferroni interval outside the band: the family-wise false
// alarm is unchanged (a pass only ends some paths earlier). The uncorrected interval is the
// width rule's (its σ at the stopping bound, which guards the repeated looks; measured in
// docs/validation.md, "Suites") and, with a confidence sequence, the sequence's, which is
// valid at every look. Returns whether it settled `result` (its `ci` and `confidence` become the
// uncorrected interval's, the one that decided).
bool settle_by_equivalence(const Config& config, const MetricSpec& spec, Estimator estimator,
                           const Levels& levels, const std::vector<double>& a, const std::vector<double>& b,
                           int burn_in_rounds, bool enough_rounds, MetricResult& result) {
  if (!config.uncorrected_pass || !enough_rounds || spec.tolerance <= 0 ||
      levels.pass_interval >= levels.interval || result.estimate.status != stats::EstimateStatus::ok ||
      !may_settle_by_equivalence({result.verdict, result.settled_by})) {
    return false;
  }
  // Settles `result` when `ci`, at `confidence`, lies inside the band.
  const auto settle = [&](const stats::Interval& ci, double confidence, SettledBy by) {
    const auto settled = settle_inside_band(ci, spec, by);
    if (!settled) {
      return false;
    }
    result.ci = ci;
    result.confidence = confidence;
    result.verdict = settled->verdict;
    result.settled_by = settled->settled_by;
    result.equivalence = true;
    return true;
  };
  const auto sequence_at = [&](double confidence) -> std::optional<stats::Interval> {
    if (!has_confidence_sequence(estimator)) {
      return std::nullopt;
    }
    const auto log_sequence = confidence_sequence(config, burn_in_rounds, result.estimate, a, b, confidence);
    if (!log_sequence) {
      return std::nullopt;
    }
    return stats::Interval{std::expm1(log_sequence->lo), std::expm1(log_sequence->hi)};
  };
  if (config.stopping == Stopping::anytime) {
    const auto sequence = sequence_at(levels.pass_interval);
    return sequence && settle(*sequence, levels.pass_interval, SettledBy::sequence);
  }
  const stats::Estimate pass =
      stats::estimate(estimator, a, b, estimator_options(config, spec, estimator, levels.pass_interval));
  if (pass.status == stats::EstimateStatus::ok && !pass.provisional &&
      settle({std::expm1(pass.ci.lo), std::expm1(pass.ci.hi)}, levels.pass_interval, SettledBy::width)) {
    return true;
  }
  if (config.stopping == Stopping::hybrid && levels.pass_sequence > 0) {
    const auto sequence = sequence_at(levels.pass_sequence);
    return sequence && settle(*sequence, levels.pass_sequence, SettledBy::sequence);
  }
  return false;
}

// The sign sequence's test of a regression of `spec` at one-sided level `alpha`: whether the
// rounds show the change beyond the metric's threshold (or its tolerance, if larger) on the side
// its direction calls worse. The edge is the threshold, not the tolerance, because the test's
// validity rests on each round's coin alone: a state that one side keeps over several rounds
// (the `ar1-side` model of docs/validation.md, which the confidence sequence's burn-in and
// batching handle) is not randomized by it. Beyond the threshold such a state would have to be
// as large as a change the gate exists to catch. Empty when the log-ratios cannot be taken.
std::optional<stats::SignSequenceStep> regression_signs(const MetricSpec& spec, const std::vector<double>& a,
                                                        const std::vector<double>& b, double alpha) {
  const auto d = stats::log_ratios(a, b);
  if (!d) {
    return std::nullopt;
  }
  const double edge = signs_bound(spec);
  if (spec.direction == Direction::lower_is_better) {
    return stats::sign_sequence(*d, std::log1p(edge), alpha);
  }
  // Worse is lower for a throughput: flip it so that "beyond the edge" is worse here too.
  std::vector<double> flipped(d->size());
  std::transform(d->begin(), d->end(), flipped.begin(), [](double value) { return -value; });
  return stats::sign_sequence(flipped, -std::log1p(-std::min(edge, 0.999)), alpha);
}

// Settles `result` as a regression when its sign sequence has shown one (settle_by_signs): at
// any round, before every other rule (it needs no burn-in).
void apply_regression_signs(const MetricSpec& spec, const Levels& levels, const std::vector<double>& a,
                            const std::vector<double>& b, MetricResult& result) {
  if (levels.signs <= 0) {
    return;
  }
  const auto step = regression_signs(spec, a, b, levels.signs);
  const Settlement settled = settle_by_signs({result.verdict, result.settled_by}, step && step->rejected);
  if (settled.settled_by != SettledBy::signs) {
    return;
  }
  result.verdict = settled.verdict;
  result.settled_by = settled.settled_by;
  result.signs_beyond = step->beyond;
  result.signs_rounds = step->rounds;
  result.signs_alpha = levels.signs;
}

// The settlement of a metric under the stopping rule of `config`, from the width rule's (`width`):
// anytime stopping judges its interval, which is the confidence sequence; hybrid stopping the
// confidence sequence at its share of α (`levels`), which it stores in `result` (and shows as
// the interval when the sequence settled it).
Settlement settle_by_stopping_rules(const Config& config, const MetricSpec& spec, const Levels& levels,
                                    int burn_in_rounds, bool enough_rounds, const std::vector<double>& a,
                                    const std::vector<double>& b, const Settlement& width,
                                    MetricResult& result) {
  switch (config.stopping) {
    case Stopping::width:
      break;
    case Stopping::anytime:
      return settle_anytime(width, result.ci, spec, enough_rounds);
    case Stopping::hybrid: {
      if (!has_confidence_sequence(result.estimator)) {
        break;  // no confidence sequence for the median, the minimum or the ratio: the width rule alone
      }
      const auto sequence =
          confidence_sequence(config, burn_in_rounds, result.estimate, a, b, levels.sequence);
      if (!sequence) {
        break;
      }
      result.sequence = stats::Interval{std::expm1(sequence->lo), std::expm1(sequence->hi)};
      const Settlement settled = settle_hybrid(width, *result.sequence, spec);
      if (settled.settled_by == SettledBy::sequence) {
        result.ci = *result.sequence;  // the interval that decided is the one shown, at its level
        result.confidence = levels.sequence;
      }
      return settled;
    }
  }
  return width;
}

}  // namespace

// Estimates one metric from its paired series and judges it: width rule, and in hybrid mode
// the confidence sequence and the sign sequence too, whichever settles it first.
MetricResult analyze_metric(const Config& config, const MetricSpec& spec, Estimator estimator,
                            const Levels& levels, const std::vector<double>& a, const std::vector<double>& b,
                            int burn_in_rounds, bool enough_rounds) {
  MetricResult result;
  result.spec = spec;
  result.estimator = estimator;
  result.confidence = levels.interval;
  result.estimate =
      stats::estimate(estimator, a, b, estimator_options(config, spec, estimator, levels.interval));
  if (config.stopping == Stopping::anytime) {
    apply_anytime(config, burn_in_rounds, result, a, b);
  }
  const auto& estimate = result.estimate;
  if (estimate.status == stats::EstimateStatus::unstable) {
    result.change = std::expm1(estimate.center);
    return result;
  }
  if (estimate.status != stats::EstimateStatus::ok) {
    apply_regression_signs(spec, levels, a, b, result);
    return result;
  }
  result.change = std::expm1(estimate.center);
  result.ci = {std::expm1(estimate.ci.lo), std::expm1(estimate.ci.hi)};
  // The width is judged on the ratio scale: upper bound / lower bound − 1 ≤ T. Near no
  // change this equals the relative width; for a large change it stays reachable
  // (a +300 % change known to ±1 % is decided, although its relative width is 8 %).
  // The stopping check swaps the decision's σ allowance for the stopping one.
  const double stopping_factor = stats::sigma_upper_bound_factor(estimate.batches, k_stopping_sigma_level) /
                                 estimate.sequential_allowance;
  result.stopping_width = std::expm1(estimate.ci.width() * stopping_factor);
  result.width_reached = !estimate.provisional && result.stopping_width <= spec.threshold;
  const Settlement settled = settle_by_stopping_rules(
      config, spec, levels, burn_in_rounds, enough_rounds, a, b,
      settle_by_width(result.ci, result.change, spec, result.width_reached, enough_rounds), result);
  result.verdict = settled.verdict;
  result.settled_by = settled.settled_by;
  apply_regression_signs(spec, levels, a, b, result);
  if (spec.gating == Gating::gated) {
    settle_by_equivalence(config, spec, estimator, levels, a, b, burn_in_rounds, enough_rounds, result);
  }
  if (result.settled_by != SettledBy::none) {
    result.projected_rounds = static_cast<double>(a.size());
  } else {
    std::optional<stats::Interval> log_sequence;
    if (result.sequence) {
      log_sequence = stats::Interval{std::log1p(result.sequence->lo), std::log1p(result.sequence->hi)};
    }
    result.projected_rounds = projected_rounds(a.size(), result.stopping_width, spec, log_sequence);
  }
  return result;
}

}  // namespace perfduel
