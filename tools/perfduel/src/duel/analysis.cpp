#include "duel/analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "config/metric_units.hpp"
#include "duel/levels.hpp"
#include "duel/notes.hpp"
#include "error.hpp"
#include "stats/assignment.hpp"
#include "stats/autocorrelation.hpp"
#include "stats/changepoint.hpp"
#include "stats/descriptive.hpp"
#include "stats/sequential.hpp"
#include "stats/sign_sequence.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// The measured rounds that have both runs, in round order: per metric, the baseline and
// candidate series paired by index.
struct PairedSeries {
  std::vector<std::vector<double>> baseline;  // [metric][round]
  std::vector<std::vector<double>> candidate;
  std::vector<int> rounds;  // round number of each pair
  // Order duet, per pair: +1 when the candidate had the higher-numbered CPU, −1 when the
  // baseline had it, 0 when the runs were not a duet's (stats/assignment.hpp).
  std::vector<int> assignment;
};

PairedSeries pair_rounds(std::size_t metric_count, std::span<const RunRecord> runs) {
  // Rounds are numbered densely from 0, so a vector indexed by round pairs the two sides.
  std::vector<std::pair<const RunRecord*, const RunRecord*>> by_round;
  for (const auto& run : runs) {
    if (run.warmup || run.round < 0) {
      continue;
    }
    const auto round = static_cast<std::size_t>(run.round);
    if (round >= by_round.size()) {
      by_round.resize(round + 1);
    }
    auto& slot = by_round[round];
    (run.side == Side::baseline ? slot.first : slot.second) = &run;
  }
  PairedSeries series;
  series.baseline.resize(metric_count);
  series.candidate.resize(metric_count);
  for (std::size_t round = 0; round < by_round.size(); ++round) {
    const auto& pair = by_round[round];
    if (pair.first == nullptr || pair.second == nullptr) {
      continue;  // an interrupted round has only one side
    }
    series.rounds.push_back(static_cast<int>(round));
    const int baseline_cpu = pair.first->cpu;
    const int candidate_cpu = pair.second->cpu;
    series.assignment.push_back(baseline_cpu < 0 || candidate_cpu < 0 || baseline_cpu == candidate_cpu ? 0
                                : candidate_cpu > baseline_cpu                                         ? 1
                                                                                                       : -1);
    for (std::size_t m = 0; m < metric_count; ++m) {
      series.baseline[m].push_back(pair.first->values.at(m));
      series.candidate[m].push_back(pair.second->values.at(m));
    }
  }
  return series;
}

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

bool all_positive(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return v > 0 && std::isfinite(v); });
}

// Which values the error message looks for.
enum class Unusable {
  non_positive,  // zero, negative or not finite
  invalid,       // negative or not finite (zeros are allowed)
};

// The first round whose value is `unusable`, for the error message.
std::string first_unusable(const PairedSeries& series, std::size_t metric, Unusable unusable) {
  for (std::size_t i = 0; i < series.rounds.size(); ++i) {
    for (const auto* side : {&series.baseline, &series.candidate}) {
      const double value = (*side)[metric][i];
      if (!(value > 0 || (value == 0 && unusable == Unusable::invalid)) || !std::isfinite(value)) {
        return fmt::format(
            "{} value {} in round {}",
            util::name_of(k_side_names, side == &series.baseline ? Side::baseline : Side::candidate), value,
            series.rounds[i] + 1);
      }
    }
  }
  return "a non-positive value";
}

// ---- Metrics that may read 0 at their resolution (zeros_allowed). ----
//
// The mean log-ratio has no value once a run reads 0, so such a metric is estimated as the
// ratio of the two sides' means (stats/ratio.hpp) from the first 0 on. Only then: while every
// run is positive the mean log-ratio stays, since it is the validated default, is robust to
// the occasional slow run that dominates an arithmetic mean, and is what a user who never
// sees a 0 expects. The switch is a function of the runs, so re-analysing a report repeats it.
// Both estimate the same change for a multiplicative slow-down; on identical programs both
// centre on 0.
//
// The zero rule: a metric most of whose runs read 0 is measured below its resolution; its
// mean is then known only through the few runs that happened to catch a tick, and its
// interval would say little about the program. So a gated metric is refused, ending the duel
// with exit code 2 (a configuration that cannot work: the runs are too short for the metric),
// once the runs show that more than half of one side's readings are 0: the one-sided 99.9 %
// lower bound of that side's share of zeros (stats::proportion_lower_bound) lies above ½.
// That is after 10 rounds when every run reads 0, about 20 when nine in ten do. A bound
// rather than the plain share, since the rule is looked at after every round: "more than half
// of the runs so far", looked at from round 10 to 150, refuses 8.7 % of sound metrics whose
// runs read 0 one time in four (a lucky early streak on one of two sides); the bound refuses
// none at up to 30 % zeros, 0.01 % at 40 %, 2 % at 50 %, 63 % at 60 % and all at 90 %
// (docs/validation.md, "Zero readings"). Before k_zero_rule_rounds, a metric that has read 0
// cannot settle. A report-only metric is shown without a ratio instead.

// Readings of one metric's paired series that are not positive.
struct Readings {
  std::size_t zeros_baseline = 0;
  std::size_t zeros_candidate = 0;
  bool invalid = false;  // a negative or non-finite value: a fault whatever the metric
  double smallest_positive = std::numeric_limits<double>::infinity();
  bool any_zero() const { return zeros_baseline + zeros_candidate > 0; }
};

Readings readings_of(const std::vector<double>& a, const std::vector<double>& b) {
  Readings readings;
  for (const auto* side : {&a, &b}) {
    for (const double value : *side) {
      if (value == 0) {
        ++(side == &a ? readings.zeros_baseline : readings.zeros_candidate);
      } else if (value > 0 && std::isfinite(value)) {
        readings.smallest_positive = std::min(readings.smallest_positive, value);
      } else {
        readings.invalid = true;
      }
    }
  }
  return readings;
}

// Whether the zero rule refuses the metric: either side's share of zeros over `rounds` is
// above ½ at k_zero_rule_confidence.
bool mostly_zero(const Readings& readings, std::size_t rounds) {
  const std::size_t zeros = std::max(readings.zeros_baseline, readings.zeros_candidate);
  return rounds >= static_cast<std::size_t>(k_zero_rule_rounds) &&
         stats::proportion_lower_bound(zeros, rounds, k_zero_rule_confidence) > 0.5;
}

std::string format_reading(double value, const std::string& unit) {
  if (unit == k_unit_seconds) {
    return util::format_seconds(value);
  }
  return unit.empty() ? fmt::format("{:.6g}", value) : fmt::format("{:.6g} {}", value, unit);
}

// "7 of 12 baseline and 1 of 12 candidate runs read 0 s".
std::string zero_counts(const Readings& readings, std::size_t rounds, const std::string& unit) {
  return fmt::format("{} of {} baseline and {} of {} candidate runs read {}", readings.zeros_baseline, rounds,
                     readings.zeros_candidate, rounds, format_reading(0, unit));
}

// What limits the resolution of `spec`, for the zero rule's message.
std::string resolution_of(const MetricSpec& spec, const Readings& readings) {
  std::string what;
  switch (spec.source) {
    case MetricSource::user_time:
    case MetricSource::system_time:
      what =
          "the kernel splits each run's CPU time between user and system time per scheduler tick (1–10 ms)";
      break;
    case MetricSource::counter:
    case MetricSource::valgrind:
      what = "a count of events: most runs cause none";
      break;
    default:
      what = "a value the program reports";
      break;
  }
  if (std::isfinite(readings.smallest_positive)) {
    what += fmt::format("; the smallest reading above 0 was {}",
                        format_reading(readings.smallest_positive, spec.unit));
  }
  return what;
}

// ---- Statistics options: detected warm-up, the CPUs' difference, anytime and hybrid stopping. ----

// The leading rounds detected warm-up dropped (0: none), where it was found most clearly (a
// metric and a series) and how far off they were (log) against the rest.
struct WarmupDrop {
  std::size_t rounds = 0;
  std::string where;
  double shift = 0;
};

// Drops the leading measured rounds that stats::detect_warmup finds as an unstable initial
// phase in any gated metric: in either side's log run series (a cold cache slows one
// binary) or in the log-ratios (a warm-up that does not cancel within a round). The whole
// round goes, both sides, so pairs stay pairs. Returns what it dropped.
WarmupDrop drop_detected_warmup(const Config& config, PairedSeries& series) {
  std::size_t drop = 0;
  std::string where;
  double shift = 0;
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const auto& a = series.baseline[m];
    const auto& b = series.candidate[m];
    if (config.metrics[m].gating != Gating::gated || !all_positive(a) || !all_positive(b)) {
      continue;
    }
    std::vector<double> log_a;
    std::vector<double> log_b;
    std::vector<double> d;
    for (std::size_t i = 0; i < a.size(); ++i) {
      log_a.push_back(std::log(a[i]));
      log_b.push_back(std::log(b[i]));
      d.push_back(log_b.back() - log_a.back());
    }
    const std::pair<const char*, const std::vector<double>*> candidates[] = {
        {"baseline", &log_a}, {"candidate", &log_b}, {"candidate/baseline ratio", &d}};
    for (const auto& [label, values] : candidates) {
      const stats::WarmupDetection found = stats::detect_warmup(*values);
      if (found.drop > drop) {
        drop = found.drop;
        shift = found.shift;
        where = fmt::format("{} {}", config.metrics[m].name, label);
      }
    }
  }
  if (drop == 0) {
    return {};
  }
  const auto cut = static_cast<std::ptrdiff_t>(drop);
  for (auto* sides : {&series.baseline, &series.candidate}) {
    for (auto& values : *sides) {
      values.erase(values.begin(), values.begin() + cut);
    }
  }
  series.rounds.erase(series.rounds.begin(), series.rounds.begin() + cut);
  series.assignment.erase(series.assignment.begin(), series.assignment.begin() + cut);
  return {drop, where, shift};
}

// Order duet: the candidate's values with the CPUs' difference taken out of each round
// (stats/assignment.hpp), and that difference; `b` itself, and no effect, when the rounds have
// no balanced assignment (another order, duet-fixed, a value that is not positive). Residuals
// are rescaled for a degree of freedom where the estimator's interval comes from the
// log-ratios' spread (mean, trimmed mean, median).
struct CpuCorrection {
  std::vector<double> candidate;
  std::optional<stats::AssignmentEffect> effect;
};

CpuCorrection correct_cpu_effect(Estimator estimator, const std::vector<double>& a,
                                 const std::vector<double>& b, const std::vector<int>& assignment) {
  CpuCorrection result{b, std::nullopt};
  if (assignment.size() != b.size() ||
      std::any_of(assignment.begin(), assignment.end(), [](int s) { return s == 0; })) {
    return result;
  }
  const auto d = stats::log_ratios(a, b);
  if (!d) {
    return result;
  }
  result.effect = stats::assignment_effect(*d, assignment);
  if (!result.effect) {
    return result;
  }
  const bool spread_based =
      estimator == Estimator::mean || estimator == Estimator::trimmed || estimator == Estimator::median;
  const auto factors = stats::assignment_correction(*d, assignment, *result.effect, spread_based);
  for (std::size_t r = 0; r < factors.size(); ++r) {
    result.candidate[r] *= factors[r];
  }
  return result;
}

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

double fewest_open_projected_rounds(std::span<const MetricResult> metrics) {
  double fewest = std::numeric_limits<double>::quiet_NaN();
  for (const auto& result : metrics) {
    if (result.spec.gating != Gating::gated || result.settled_by != SettledBy::none) {
      continue;
    }
    if (std::isnan(result.projected_rounds)) {
      return std::numeric_limits<double>::quiet_NaN();  // one without a projection yet: no judgement
    }
    fewest = std::isnan(fewest) ? result.projected_rounds : std::min(fewest, result.projected_rounds);
  }
  return fewest;
}

// ---- Planning: the rounds and the estimator of each metric. ----

// What the runs so far say about one metric before it is judged.
struct MetricPlan {
  Readings readings;
  bool deterministic = false;  // is_deterministic, and no reading of 0
  int min_rounds = 0;          // MetricResult::min_rounds
  Estimator estimator = Estimator::mean;
};

struct RoundPlan {
  std::vector<MetricPlan> metrics;  // same order as Config::metrics
  bool enough_rounds = true;        // every gated metric has its minimum rounds
};

// The minimum rounds guard against stopping on a lucky low variance. A metric that counts,
// as instructions do, has no variance to be lucky about when each side's runs all lie within
// a hundredth of the threshold of each other: the interval is far inside the threshold
// whatever more rounds would bring, and three rounds (the fewest with a t interval of two
// degrees of freedom and a check that the first two were not a coincidence) are enough. One
// run off by more ends the shortcut for that metric: it needs the configured minimum again.
// Noise that would need the minimum rounds, σ of at least a tenth of the threshold, puts
// three runs of one side within T/100 with a chance of about 3·(0.1)²·∫φ³ ≈ 0.3 %, of both
// sides below 10⁻⁵ (and at σ ≈ T/3 below 10⁻⁷).
// That argument holds for a count, not for a time: a wide threshold (1000 %) would put noisy
// wall times "within T/100" and rest the verdict on three rounds of noise. So the shortcut is
// for counted metrics, and for values that are not times only when identical to the bit
// (determinism_of); a time honours min_rounds whatever its threshold.
// A metric that has read 0 needs k_zero_rule_rounds, so that the zero rule has judged it
// before it settles; its estimator is the ratio of means once its zeros are allowed.
RoundPlan plan_rounds(const Config& config, const PairedSeries& series) {
  RoundPlan plan;
  const int measured = static_cast<int>(series.rounds.size());
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const MetricSpec& spec = config.metrics[m];
    MetricPlan metric;
    metric.readings = readings_of(series.baseline[m], series.candidate[m]);
    const bool any_zero = metric.readings.any_zero();
    metric.deterministic = !any_zero && is_deterministic(spec, series.baseline[m], series.candidate[m]);
    metric.min_rounds = any_zero               ? std::max(config.min_rounds, k_zero_rule_rounds)
                        : metric.deterministic ? std::min(config.min_rounds, k_deterministic_min_rounds)
                                               : config.min_rounds;
    metric.estimator =
        any_zero && !metric.readings.invalid && zeros_allowed(spec) ? Estimator::ratio : spec.estimator;
    if (spec.gating == Gating::gated) {
      plan.enough_rounds &= measured >= metric.min_rounds;
    }
    plan.metrics.push_back(metric);
  }
  return plan;
}

// ---- Judging each metric. ----

// Estimates and judges metric `m`, whose values have a ratio, from its paired series with the
// CPUs' difference taken out (order duet).
MetricResult judge_with_ratio(const Config& config, const MetricPlan& plan, const Levels& levels,
                              const PairedSeries& series, std::size_t m, bool enough_rounds) {
  const auto& a = series.baseline[m];
  // A deterministic metric's sequence may start with its minimum rounds; any other's needs
  // k_sequence_burn_in_rounds, however low min_rounds is set.
  const int burn_in_rounds =
      plan.deterministic ? plan.min_rounds : std::max(plan.min_rounds, k_sequence_burn_in_rounds);
  const auto corrected = correct_cpu_effect(plan.estimator, a, series.candidate[m], series.assignment);
  MetricResult result = analyze_metric(config, config.metrics[m], plan.estimator, levels, a,
                                       corrected.candidate, burn_in_rounds, enough_rounds);
  if (corrected.effect) {
    constexpr double k_z95 = 1.959964;
    result.cpu_effect = std::expm1(corrected.effect->effect);
    result.cpu_effect_ci = {std::expm1(corrected.effect->effect - k_z95 * corrected.effect->standard_error),
                            std::expm1(corrected.effect->effect + k_z95 * corrected.effect->standard_error)};
  }
  return result;
}

// Metric `m`, whose values have no ratio (a 0 beyond the zero rule, or an invalid value): a
// gated one is refused (Error, see analyze); a report-only one is shown without a ratio, since
// report-only metrics such as the system time of a short program are often exactly zero.
MetricResult judge_without_ratio(const Config& config, const MetricPlan& plan, const Levels& levels,
                                 const PairedSeries& series, std::size_t m) {
  const MetricSpec& spec = config.metrics[m];
  const bool gated = spec.gating == Gating::gated;
  const Readings& read = plan.readings;
  const std::size_t rounds = series.rounds.size();
  if (gated && !read.invalid && zeros_allowed(spec)) {
    throw Error(fmt::format("metric \"{}\": {}: most runs are below its resolution ({}). Make "
                            "each run longer (repeat the work inside the benchmark), or gate another "
                            "metric (wall_time, counted instructions)",
                            spec.name, zero_counts(read, rounds, spec.unit), resolution_of(spec, read)),
                ExitCode::usage);
  }
  const auto where = first_unusable(series, m, read.invalid ? Unusable::invalid : Unusable::non_positive);
  if (gated) {
    throw Error(
        fmt::format("metric \"{}\": {}; a ratio needs positive values (is the metric read "
                    "correctly?{})",
                    spec.name, where, read.invalid ? "" : " if 0 is a valid reading, set \"zeros: allowed\""),
        ExitCode::benchmark_failed);
  }
  MetricResult result;
  result.spec = spec;
  result.estimator = plan.estimator;
  result.confidence = levels.interval;
  result.has_ratio = false;
  result.estimate.note =
      read.invalid || !zeros_allowed(spec)
          ? fmt::format("no ratio: {}", where)
          : fmt::format("no ratio: {}, below its resolution", zero_counts(read, rounds, spec.unit));
  return result;
}

// Judges metric `m` at the levels `level_plan` gives it; at the end (`finality`) with each side's
// median and its final verdict.
MetricResult judge_metric(const Config& config, const LevelPlan& level_plan, const MetricPlan& plan,
                          const PairedSeries& series, std::size_t m, Finality finality) {
  const MetricSpec& spec = config.metrics[m];
  const auto& a = series.baseline[m];
  const auto& b = series.candidate[m];
  const Levels levels = levels_of(level_plan, spec, plan.estimator);
  const bool enough_rounds = static_cast<int>(series.rounds.size()) >= plan.min_rounds;
  const bool usable_zeros = zeros_allowed(spec) && !mostly_zero(plan.readings, series.rounds.size());
  MetricResult result = !plan.readings.invalid && (!plan.readings.any_zero() || usable_zeros)
                            ? judge_with_ratio(config, plan, levels, series, m, enough_rounds)
                            : judge_without_ratio(config, plan, levels, series, m);
  result.estimate.rounds = a.size();
  result.min_rounds = plan.min_rounds;
  result.enough_rounds = enough_rounds;
  if (finality == Finality::final) {  // for the report only; sorting every round would cost O(n log n) each
    result.baseline_median = a.empty() ? 0.0 : stats::median(a);
    result.candidate_median = b.empty() ? 0.0 : stats::median(b);
    result.verdict = final_verdict(result.verdict, result.estimate.status == stats::EstimateStatus::unstable);
  }
  return result;
}

// Holm's step-down as the decision rule over the gated metrics (holm_step_down): each estimate's
// p-value tests "inside the tolerance band". The intervals stay at the Bonferroni level (Holm
// has no simultaneous intervals), so a metric can be a regression by Holm while its shown
// interval still touches the band; the note says which. Anytime mode keeps Bonferroni: the
// p-values of fixed-sample tests are not valid under continuous monitoring.
void apply_holm(const Config& config, const LevelPlan& plan, Analysis& analysis, Finality finality) {
  if (config.stopping == Stopping::anytime) {
    note_holm_declined(analysis.notes);
    return;
  }
  std::vector<HolmMetric> family;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      family.push_back({result.estimate.status == stats::EstimateStatus::ok, result.estimate.p_value,
                        Settlement{result.verdict, result.settled_by}, result.estimate.center > 0,
                        result.spec.direction, result.width_reached && result.enough_rounds});
    }
  }
  const auto decisions = holm_step_down(family, plan.holm_alpha, finality);
  std::size_t i = 0;
  for (auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      result.verdict = decisions[i++].verdict;
    }
  }
  note_holm(analysis.metrics, decisions, config.confidence, analysis.notes);
}

// Marks the gated metrics that are not regressions but look like one (MetricResult::
// likely_regression): a change worse than the tolerance (where a regression's interval must
// lie), and an interval wholly on the worse side of no change, so that an unchanged metric is
// called so with chance α/2 at most, not whenever its noise puts the estimate beyond the band.
// Counts the open metrics whose change alone is worse than the tolerance
// (Analysis::open_likely_regressions): those the duel may go on for, to settle them either way.
void mark_likely_regressions(Analysis& analysis) {
  analysis.open_likely_regressions = 0;
  for (auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated || !result.has_ratio || result.verdict == Verdict::regression ||
        result.estimate.status != stats::EstimateStatus::ok || !std::isfinite(result.change)) {
      continue;
    }
    const bool lower_is_better = result.spec.direction == Direction::lower_is_better;
    const double ratio = 1 + result.change;
    const bool beyond_band = (lower_is_better ? ratio : 1 / ratio) - 1 > result.spec.tolerance;
    const bool worse_for_sure = lower_is_better ? result.ci.lo > 0 : result.ci.hi < 0;
    result.likely_regression = beyond_band && worse_for_sure;
    if (beyond_band && result.settled_by == SettledBy::none) {
      ++analysis.open_likely_regressions;
    }
  }
}

// The overall verdict of `analysis`'s gated metrics (overall_verdict); `enough_rounds`: every
// gated metric has its minimum rounds.
void judge_overall(Analysis& analysis, bool enough_rounds, Finality finality) {
  std::vector<GatedMetric> gated;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      gated.push_back(gated_metric({result.verdict, result.settled_by},
                                   result.estimate.status == stats::EstimateStatus::ok));
    }
  }
  const OverallVerdict overall = overall_verdict(gated, enough_rounds, finality);
  analysis.verdict = overall.verdict;
  analysis.can_stop = overall.can_stop;
  analysis.stop = overall.end;
}

}  // namespace

double projected_rounds(std::size_t rounds, double stopping_width, const MetricSpec& spec,
                        const std::optional<stats::Interval>& sequence) {
  const auto n = static_cast<double>(rounds);
  double projected = rounds_for_width(rounds, stopping_width, spec.threshold);
  if (sequence) {
    const double radius = sequence->width() / 2;
    const double center = (sequence->lo + sequence->hi) / 2;
    const double tau = std::log1p(spec.tolerance);
    // Outside the band it would settle a regression or an improvement; inside, no change.
    const double gap = std::abs(center) > tau ? std::abs(center) - tau
                       : spec.tolerance > 0   ? tau - std::abs(center)
                                              : 0;
    if (gap > 0 && radius > 0) {
      const double by_sequence = n * std::max(radius / gap, 1.0) * std::max(radius / gap, 1.0);
      projected = std::isnan(projected) ? by_sequence : std::min(projected, by_sequence);
    }
  }
  return projected;
}

double rounds_for_width(std::size_t rounds, double stopping_width, double threshold) {
  if (!std::isfinite(stopping_width) || threshold <= 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const double shrink = std::max(std::log1p(stopping_width) / std::log1p(threshold), 1.0);
  return static_cast<double>(rounds) * shrink * shrink;
}

Determinism determinism_of(const MetricSpec& metric) {
  static constexpr std::array<std::string_view, 7> k_time_units{"s", "ms", "us", "µs", "ns", "min", "h"};
  static constexpr std::array<std::string_view, 4> k_gbench_time_fields{
      "real_time", "cpu_time", "bytes_per_second", "items_per_second"};
  const auto one_of = [](const auto& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  switch (metric.source) {
    case MetricSource::counter:
    case MetricSource::valgrind:
      return Determinism::counted;
    case MetricSource::wall_time:
    case MetricSource::user_time:
    case MetricSource::system_time:
    case MetricSource::catch2:
      return Determinism::never;
    case MetricSource::google_benchmark:
      return one_of(k_gbench_time_fields, metric.field) ? Determinism::never : Determinism::bit_identical;
    case MetricSource::regex:
    case MetricSource::json_pointer:
      return one_of(k_time_units, metric.unit) ? Determinism::never : Determinism::bit_identical;
    case MetricSource::max_rss:
      return Determinism::bit_identical;
  }
  return Determinism::never;
}

bool is_deterministic(std::span<const double> baseline, std::span<const double> candidate, double span) {
  const auto within = [&](std::span<const double> values) {
    if (values.size() < 2) {
      return false;
    }
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return *low > 0 && *high / *low - 1 <= span;
  };
  return within(baseline) && within(candidate);
}

bool is_deterministic(const MetricSpec& metric, std::span<const double> baseline,
                      std::span<const double> candidate) {
  switch (determinism_of(metric)) {
    case Determinism::counted:
      return is_deterministic(baseline, candidate, metric.threshold / 100);
    case Determinism::bit_identical:
      return is_deterministic(baseline, candidate, 0.0);
    case Determinism::never:
      return false;
  }
  return false;
}

std::vector<std::vector<double>> measured_log_ratios(const Config& config, std::span<const RunRecord> runs) {
  const PairedSeries series = pair_rounds(config.metrics.size(), runs);
  std::vector<std::vector<double>> ratios(config.metrics.size());
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    if (auto d = stats::log_ratios(series.baseline[m], series.candidate[m])) {
      ratios[m] = std::move(d).value();
    }
  }
  return ratios;
}

Analysis analyze_identical(const Config& config) {
  Analysis analysis;
  std::vector<GatedMetric> gated;
  for (const MetricSpec& spec : config.metrics) {
    MetricResult result;
    result.spec = spec;
    result.estimator = spec.estimator;
    result.confidence = 1.0;  // identical programs: a certainty, not an estimate
    result.baseline_median = std::numeric_limits<double>::quiet_NaN();
    result.candidate_median = std::numeric_limits<double>::quiet_NaN();
    result.estimate.status = stats::EstimateStatus::ok;
    result.estimate.p_value = 1.0;
    result.width_reached = true;
    result.enough_rounds = true;
    const Settlement settlement = settle_identical();
    result.verdict = settlement.verdict;
    result.settled_by = settlement.settled_by;
    if (spec.gating == Gating::gated) {
      gated.push_back(gated_metric(settlement, true));
    }
    analysis.metrics.push_back(std::move(result));
  }
  const OverallVerdict overall = overall_verdict(gated, true, Finality::final);
  analysis.verdict = overall.verdict;
  analysis.can_stop = overall.can_stop;
  analysis.stop = DuelEnd::identical;
  return analysis;
}

Analysis analyze(const Config& config, std::span<const RunRecord> runs, Finality finality) {
  Analysis analysis;
  auto series = pair_rounds(config.metrics.size(), runs);
  analysis.measured_rounds = static_cast<int>(series.rounds.size());
  if (config.detect_warmup) {
    const WarmupDrop dropped = drop_detected_warmup(config, series);
    if (dropped.rounds > 0) {
      note_warmup(dropped.rounds, dropped.where, dropped.shift, analysis.notes);
    }
    analysis.dropped_rounds = static_cast<int>(dropped.rounds);
  }
  // Planning: the rounds and the estimator of each metric, and the levels of its intervals.
  const RoundPlan rounds = plan_rounds(config, series);
  const LevelPlan levels = plan_levels(config);

  // Judging: each metric on its own; the gated ones together under Holm and overall, below.
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    analysis.metrics.push_back(judge_metric(config, levels, rounds.metrics[m], series, m, finality));
  }

  // The notes, in the order a reader needs them: the levels, each metric as judged on its own,
  // Holm's decisions, and at the end the summary of the undecided and the duet's.
  note_levels(config, levels, analysis.notes);
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const MetricResult& result = analysis.metrics[m];
    const Readings& readings = rounds.metrics[m].readings;
    note_metric(config, result,
                result.has_ratio && readings.any_zero()
                    ? zero_counts(readings, series.rounds.size(), result.spec.unit)
                    : std::string(),
                finality, analysis.notes);
  }
  if (config.correction == Correction::holm) {
    apply_holm(config, levels, analysis, finality);
  }
  analysis.fewest_open_projected_rounds = fewest_open_projected_rounds(analysis.metrics);
  if (finality == Finality::final) {
    summarize_undecided(analysis);
    note_cpu_effects(config, runs, analysis, analysis.notes);
    note_duet_interference(config, runs, analysis.notes);
  }
  judge_overall(analysis, rounds.enough_rounds, finality);
  mark_likely_regressions(analysis);
  return analysis;
}

}  // namespace perfduel
