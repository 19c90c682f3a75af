#include "duel/analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "config/metric_units.hpp"
#include "error.hpp"
#include "stats/assignment.hpp"
#include "stats/autocorrelation.hpp"
#include "stats/changepoint.hpp"
#include "stats/descriptive.hpp"
#include "stats/multiple.hpp"
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

// ---- Statistics options: detected warm-up, anytime stopping, Holm's step-down. ----

// Drops the leading measured rounds that stats::detect_warmup finds as an unstable initial
// phase in any gated metric: in either side's log run series (a cold cache slows one
// binary) or in the log-ratios (a warm-up that does not cancel within a round). The whole
// round goes, both sides, so pairs stay pairs. Returns the number dropped and says why.
int drop_detected_warmup(const Config& config, PairedSeries& series, std::vector<Note>& notes) {
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
    return 0;
  }
  const auto cut = static_cast<std::ptrdiff_t>(drop);
  for (auto* sides : {&series.baseline, &series.candidate}) {
    for (auto& values : *sides) {
      values.erase(values.begin(), values.begin() + cut);
    }
  }
  series.rounds.erase(series.rounds.begin(), series.rounds.begin() + cut);
  series.assignment.erase(series.assignment.begin(), series.assignment.begin() + cut);
  notes.push_back({NoteWeight::key, fmt::format("warm-up detected: dropped the first {} measured rounds ({} "
                                                "{:+.1f} % against the rest)",
                                                drop, where, 100 * std::expm1(shift))});
  return static_cast<int>(drop);
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

// The notes of a duet: the CPUs' difference per gated metric, largest first (a few), or
// for duet-fixed that it is in every change.
void note_cpu_effects(const Config& config, std::span<const RunRecord> runs, const Analysis& analysis,
                      std::vector<Note>& notes) {
  int low = std::numeric_limits<int>::max();
  int high = -1;
  for (const auto& run : runs) {
    if (run.cpu >= 0) {
      low = std::min(low, run.cpu);
      high = std::max(high, run.cpu);
    }
  }
  if (high < 0) {
    return;
  }
  if (config.order == Order::duet_fixed) {
    notes.push_back(
        {NoteWeight::key,
         fmt::format("order: duet-fixed: the baseline ran on one CPU and the candidate on the other "
                     "(CPUs {} and {}) in every round, so each change includes the two CPUs' "
                     "difference; order: duet balances it out",
                     low, high)});
    return;
  }
  std::vector<const MetricResult*> measured;
  for (const auto& result : analysis.metrics) {
    if (result.cpu_effect && result.spec.gating == Gating::gated) {
      measured.push_back(&result);
    }
  }
  if (measured.empty()) {
    return;
  }
  std::stable_sort(measured.begin(), measured.end(), [](const MetricResult* x, const MetricResult* y) {
    return std::abs(*x->cpu_effect) > std::abs(*y->cpu_effect);
  });
  constexpr std::size_t k_shown = 3;
  std::vector<std::string> effects;
  for (std::size_t i = 0; i < measured.size() && i < k_shown; ++i) {
    effects.push_back(fmt::format("{} {:+.2f} % ({:+.2f} % to {:+.2f} %)", measured[i]->spec.name,
                                  100 * *measured[i]->cpu_effect, 100 * measured[i]->cpu_effect_ci.lo,
                                  100 * measured[i]->cpu_effect_ci.hi));
  }
  if (measured.size() > k_shown) {
    effects.push_back(fmt::format("{} more", measured.size() - k_shown));
  }
  notes.push_back({NoteWeight::detail,
                   fmt::format("duet: CPU {} against CPU {}, the same program (95 %): {}; the balanced "
                               "assignment keeps the difference out of each change, and the analysis takes "
                               "its share out of the rounds' noise",
                               high, low, fmt::join(effects, ", "))});
}

// Order duet: how much longer runs took at the same time than alone, from the runs made alone
// after the warm-up (RunRecord::alone) against the median of each side's measured runs, in
// wall time. Where the two CPUs share a core (SMT), caches or memory bandwidth, each run is
// slowed while the other runs and speeds up once it is alone again, so the longer run's extra
// time is partly made at full speed: a change shows smaller than it is (on a 2-vCPU VM whose
// runs slowed by 35 %, a +6.1 % change read +4.8 %, docs/performance.md, "Duet"). A slowdown beyond
// k_duet_interference_limit is a key note that says so; one alone run per side is a rough
// measure (a few percent), enough to tell 1.4 from 1.0.
constexpr double k_duet_interference_limit = 0.05;

void note_duet_interference(const Config& config, std::span<const RunRecord> runs, std::vector<Note>& notes) {
  const auto wall = std::find_if(config.metrics.begin(), config.metrics.end(),
                                 [](const MetricSpec& m) { return m.source == MetricSource::wall_time; });
  if (!is_duet(config.order) || wall == config.metrics.end()) {
    return;
  }
  const auto m = static_cast<std::size_t>(wall - config.metrics.begin());
  std::array<double, 2> alone{0, 0};
  std::array<std::vector<double>, 2> together;
  for (const auto& run : runs) {
    const std::size_t side = run.side == Side::baseline ? 0 : 1;
    if (run.alone) {
      alone[side] = run.values.at(m);
    } else if (!run.warmup) {
      together[side].push_back(run.values.at(m));
    }
  }
  if (!(alone[0] > 0 && alone[1] > 0) || together[0].empty() || together[1].empty()) {
    return;
  }
  const double slowdown =
      std::sqrt(stats::median(together[0]) / alone[0] * stats::median(together[1]) / alone[1]) - 1;
  if (slowdown > k_duet_interference_limit) {
    notes.push_back(
        {NoteWeight::key,
         fmt::format("duet: at the same time runs took {:+.0f} % longer than alone (warm-up): the two "
                     "CPUs share a core, caches or memory bandwidth, so a change shows smaller than it "
                     "is; check with order: random before relying on duet on this machine",
                     100 * slowdown)});
  } else {
    notes.push_back(
        {NoteWeight::detail,
         fmt::format("duet: at the same time runs took {:+.1f} % against alone (warm-up): the two "
                     "CPUs hardly slow each other",
                     100 * slowdown)});
  }
}

// Whether hybrid stopping gives a metric of `estimator` the confidence sequence: the mean's, and
// the trimmed mean's, which takes the mean's sequence (the same log-ratios, the same batching):
// without it a clear regression of a noisy suite could end the duel only by the sign
// sequence, which needs most rounds beyond the threshold (docs/validation.md, "Suites").
bool has_confidence_sequence(Estimator estimator) {
  return estimator == Estimator::mean || estimator == Estimator::trimmed;
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

// The share of the error budget α that hybrid stopping gives its confidence sequence; the
// width rule's interval gets the rest. A false alarm needs either the width rule's interval
// at its stop or the sequence at any time to exclude the truth, so the two shares add up to
// at most α (a union bound). The sequence is there to settle clear answers (a 3× slow-down,
// a change far outside the band), where a small α costs little: its radius grows with
// √ln(1/α). The width rule decides the close calls, and every point of α taken from it costs
// rounds there: (z(α(1 − s)/2) / z(α/2))² more, 2 % at s = 0.1. Measured with
// perfduel_validate (docs/validation.md): false alarms, rounds at δ = 0 … 20T.
// Half of that share goes to the sign sequence (k_sign_share), when it can run.
constexpr double k_sequence_share = 0.1;

// The share of α that hybrid stopping gives the sign sequence (stats/sign_sequence.hpp), spent on
// the regression side alone (rounds beyond the threshold, regression_signs): its job is to fail a
// clear regression before the confidence
// sequence's 20-round burn-in (a slow benchmark 30 % slower fails in 10 rounds instead of 20),
// and a regression is the only verdict that ends a duel on one metric. It is valid in finite
// samples only because each round's order is a fresh coin, so it runs with `order: random`
// only. Its share comes out of the confidence sequence's, so the width rule's level, which
// sets the rounds of every pass, is unchanged; the confidence sequence, which settles clear
// cases after its burn-in, gets the other half.
constexpr double k_sign_share = 0.05;

// Level of a gated metric's interval given the family `confidence` split over `count` metrics.
double per_metric_confidence(double confidence, std::size_t count, double share) {
  return stats::bonferroni_confidence(1.0 - (1.0 - confidence) * share, count);
}

// Holm's step-down (stats/multiple.hpp) as the decision rule over the gated metrics: each
// estimate's p-value tests "inside the tolerance band"; rejected ones are regressions or
// improvements by their side, the others are judged as no change or still pending. The
// intervals stay at the Bonferroni level (Holm has no simultaneous intervals), so a metric
// can be a regression by Holm while its shown interval still touches the band; the note says
// which. Anytime mode keeps Bonferroni: the p-values of fixed-sample tests are not valid
// under continuous monitoring.
void apply_holm(const Config& config, Analysis& analysis, Finality finality) {
  if (config.stopping == Stopping::anytime) {
    analysis.notes.push_back(
        {NoteWeight::detail,
         "correction: Holm requested, but anytime stopping decides with Bonferroni-level "
         "confidence sequences"});
    return;
  }
  std::vector<MetricResult*> gated;
  std::vector<double> p_values;
  for (auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      gated.push_back(&result);
      p_values.push_back(result.estimate.status == stats::EstimateStatus::ok ? result.estimate.p_value
                                                                             : std::nan(""));
    }
  }
  // Under hybrid stopping Holm decides with the width rule's share of α; metrics the
  // confidence sequence settled keep that decision.
  const double alpha =
      (1.0 - config.confidence) * (config.stopping == Stopping::hybrid ? 1.0 - k_sequence_share : 1.0);
  const auto rejected = stats::holm_rejections(p_values, alpha);
  const auto levels = stats::holm_levels(p_values, alpha);
  analysis.notes.push_back(
      {NoteWeight::key,
       fmt::format("correction: Holm's step-down decides over {} gated metrics at family-wise {:.4g} % "
                   "confidence; intervals are shown at the Bonferroni level",
                   gated.size(), 100 * config.confidence)});
  for (std::size_t i = 0; i < gated.size(); ++i) {
    MetricResult& result = *gated[i];
    if (result.estimate.status != stats::EstimateStatus::ok || result.settled_by == SettledBy::sequence ||
        result.settled_by == SettledBy::signs) {
      continue;
    }
    const bool was_decided = result.verdict == Verdict::regression || result.verdict == Verdict::improvement;
    if (rejected[i] || was_decided) {
      // A Bonferroni exclusion is always a Holm rejection with consistent p-values; were it
      // not, the two rules would not contradict each other silently: the width rule's verdict.
      result.verdict = holm_verdict(rejected[i], result.estimate.center > 0, result.spec.direction,
                                    result.width_reached && result.enough_rounds, finality);
    }
    if (rejected[i]) {
      if (!was_decided) {
        analysis.notes.push_back(
            {NoteWeight::key,
             fmt::format("{}: {} by Holm (p = {:.3g} ≤ {:.3g}); its Bonferroni interval still touches the "
                         "tolerance band",
                         result.spec.name, to_string(result.verdict), result.estimate.p_value, levels[i])});
      }
    }
  }
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

// The interval levels of one metric: `interval` for the width rule's (or, in anytime mode,
// the sequence's) interval, `sequence` for hybrid stopping's confidence sequence (0: none),
// both at the Bonferroni level that guards the claim "some metric regressed". `pass_interval`
// and `pass_sequence` are the same levels without the correction, for the claim "no change":
// equal to the others when one metric is gated.
// `signs` is the one-sided α of the sign sequence's test for a regression (0: none).
struct Levels {
  double interval = 0;
  double sequence = 0;
  double pass_interval = 0;
  double pass_sequence = 0;
  double signs = 0;
};

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
      result.verdict == Verdict::regression || result.verdict == Verdict::improvement ||
      result.settled_by != SettledBy::none) {
    return false;
  }
  const auto inside = [&](const stats::Interval& ci) {
    return judge_sequence(ci, spec) == Verdict::no_change;
  };
  const auto settle = [&](const stats::Interval& ci, double confidence, SettledBy by) {
    result.ci = ci;
    result.confidence = confidence;
    result.verdict = Verdict::no_change;
    result.settled_by = by;
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
    if (const auto sequence = sequence_at(levels.pass_interval); sequence && inside(*sequence)) {
      return settle(*sequence, levels.pass_interval, SettledBy::sequence);
    }
    return false;
  }
  const stats::Estimate pass =
      stats::estimate(estimator, a, b, estimator_options(config, spec, estimator, levels.pass_interval));
  if (pass.status == stats::EstimateStatus::ok && !pass.provisional) {
    const stats::Interval ci{std::expm1(pass.ci.lo), std::expm1(pass.ci.hi)};
    if (inside(ci)) {
      return settle(ci, levels.pass_interval, SettledBy::width);
    }
  }
  if (config.stopping == Stopping::hybrid && levels.pass_sequence > 0) {
    if (const auto sequence = sequence_at(levels.pass_sequence); sequence && inside(*sequence)) {
      return settle(*sequence, levels.pass_sequence, SettledBy::sequence);
    }
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
  const double edge = std::max(spec.threshold, spec.tolerance);
  if (spec.direction == Direction::lower_is_better) {
    return stats::sign_sequence(*d, std::log1p(edge), alpha);
  }
  // Worse is lower for a throughput: flip it so that "beyond the edge" is worse here too.
  std::vector<double> flipped(d->size());
  std::transform(d->begin(), d->end(), flipped.begin(), [](double value) { return -value; });
  return stats::sign_sequence(flipped, -std::log1p(-std::min(edge, 0.999)), alpha);
}

// Settles `result` as a regression when its sign sequence has shown one: at any round, before
// every other rule (it needs no burn-in), and over any other settlement but a regression.
void apply_regression_signs(const MetricSpec& spec, const Levels& levels, const std::vector<double>& a,
                            const std::vector<double>& b, MetricResult& result) {
  if (levels.signs <= 0 || (result.verdict == Verdict::regression && result.settled_by != SettledBy::none)) {
    return;
  }
  const auto step = regression_signs(spec, a, b, levels.signs);
  if (!step || !step->rejected) {
    return;
  }
  result.verdict = Verdict::regression;
  result.settled_by = SettledBy::signs;
  result.signs_beyond = step->beyond;
  result.signs_rounds = step->rounds;
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
  result.verdict = judge_width(result.ci, result.change, spec, result.width_reached, enough_rounds);
  if (result.width_reached && enough_rounds) {
    result.settled_by = SettledBy::width;
  }
  switch (config.stopping) {
    case Stopping::width:
      break;
    case Stopping::anytime:
      // The interval is the sequence: any decision it makes is valid whenever it is made,
      // and a sequence inside the tolerance band settles "no change" before it is narrow.
      if (enough_rounds && judge_sequence(result.ci, spec) != Verdict::pending) {
        result.verdict = judge_sequence(result.ci, spec);
        result.settled_by = SettledBy::sequence;
      }
      break;
    case Stopping::hybrid: {
      if (!has_confidence_sequence(estimator)) {
        break;  // no confidence sequence for the median, the minimum or the ratio: the width rule alone
      }
      const auto sequence = confidence_sequence(config, burn_in_rounds, estimate, a, b, levels.sequence);
      if (!sequence) {
        break;
      }
      result.sequence = stats::Interval{std::expm1(sequence->lo), std::expm1(sequence->hi)};
      const Verdict settled = judge_sequence(*result.sequence, spec);
      // A sequence outside the band takes precedence over a width rule that settled too: only
      // a sequence may end the duel on one metric (duel/verdict.cpp), so a +98 % regression
      // that the width rule settled first must not wait for nine other benchmarks. The
      // verdict is the same (the interval lies inside the sequence, around the same centre).
      const bool outside = settled == Verdict::regression || settled == Verdict::improvement;
      if (settled != Verdict::pending && (result.settled_by == SettledBy::none || outside)) {
        result.verdict = settled;
        result.settled_by = SettledBy::sequence;
        result.ci = *result.sequence;  // the interval that decided is the one shown
      }
      break;
    }
  }
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

bool is_undecided(Verdict verdict) {
  return verdict == Verdict::pending || verdict == Verdict::inconclusive || verdict == Verdict::unstable;
}

// Many undecided metrics, each with its key note of why, would bury the verdict (a suite of 13
// benchmarks, 13 notes of a widened interval): beyond k_undecided_notes_shown their notes become
// details, and one key note sums them up: how many, after how many rounds, and how far their
// intervals still are from their thresholds.
constexpr std::size_t k_undecided_notes_shown = 2;

void summarize_undecided(Analysis& analysis) {
  std::vector<Note*> why;
  std::size_t gated = 0;
  std::size_t undecided = 0;
  double narrowest = std::numeric_limits<double>::infinity();
  double widest = 0;
  double most_widened = 1;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated) {
      continue;
    }
    ++gated;
    if (!is_undecided(result.verdict)) {
      continue;
    }
    ++undecided;
    if (std::isfinite(result.stopping_width) && result.spec.threshold > 0) {
      narrowest = std::min(narrowest, result.stopping_width / result.spec.threshold);
      widest = std::max(widest, result.stopping_width / result.spec.threshold);
    }
    most_widened = std::max(most_widened, result.estimate.spread_inflation);
    for (auto& note : analysis.notes) {
      if (note.weight == NoteWeight::key && note.text.starts_with(result.spec.name + ": ")) {
        why.push_back(&note);
      }
    }
  }
  if (why.size() <= k_undecided_notes_shown) {
    return;
  }
  for (Note* note : why) {
    note->weight = NoteWeight::detail;
  }
  std::string text = fmt::format("{} of {} gated metrics undecided after {} rounds", undecided, gated,
                                 analysis.measured_rounds - analysis.dropped_rounds);
  if (widest > 0) {
    text += fmt::format(": interval widths {:.1f}–{:.1f}× their thresholds", narrowest, widest);
  }
  if (most_widened > 1.001) {
    text += fmt::format(" (widened up to ×{:.2f} for autocorrelation not yet ruled out)", most_widened);
  }
  analysis.notes.push_back({NoteWeight::key, text + "; --verbose says why for each"});
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

std::vector<std::string> note_texts(std::span<const Note> notes) {
  std::vector<std::string> texts;
  texts.reserve(notes.size());
  for (const auto& note : notes) {
    texts.push_back(note.text);
  }
  return texts;
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

Analysis analyze(const Config& config, std::span<const RunRecord> runs, Finality finality) {
  Analysis analysis;
  auto series = pair_rounds(config.metrics.size(), runs);
  analysis.measured_rounds = static_cast<int>(series.rounds.size());
  if (config.detect_warmup) {
    analysis.dropped_rounds = drop_detected_warmup(config, series, analysis.notes);
  }
  const int measured = static_cast<int>(series.rounds.size());
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
  // before it settles.
  std::vector<Readings> readings;
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    readings.push_back(readings_of(series.baseline[m], series.candidate[m]));
  }
  std::vector<bool> deterministic;
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    deterministic.push_back(!readings[m].any_zero() &&
                            is_deterministic(config.metrics[m], series.baseline[m], series.candidate[m]));
  }
  const auto min_rounds_of = [&](std::size_t m) {
    if (readings[m].any_zero()) {
      return std::max(config.min_rounds, k_zero_rule_rounds);
    }
    return deterministic[m] ? std::min(config.min_rounds, k_deterministic_min_rounds) : config.min_rounds;
  };
  // The estimator of each metric: the ratio of means once a metric whose zeros are allowed read 0.
  const auto estimator_of = [&](std::size_t m) {
    const MetricSpec& spec = config.metrics[m];
    return readings[m].any_zero() && !readings[m].invalid && zeros_allowed(spec) ? Estimator::ratio
                                                                                 : spec.estimator;
  };
  bool enough_rounds = true;  // every gated metric has its minimum rounds
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    if (config.metrics[m].gating == Gating::gated) {
      enough_rounds &= measured >= min_rounds_of(m);
    }
  }

  // Bonferroni: with m gated metrics each interval is built at 1 − α/m, so that the chance
  // of any false alarm in the family stays below α. Report-only metrics are not part of the
  // family and get the plain level. Hybrid stopping splits each metric's α between the width
  // rule's interval and the confidence sequence (k_sequence_share).
  const std::size_t gated_count = config.gated_metrics().size();
  const bool hybrid = config.stopping == Stopping::hybrid;
  // The mean and the trimmed mean have a confidence sequence (the mean's); the median and the minimum the
  // sign sequence (its share taken from the width rule's), the ratio (zeros) neither: the width rule keeps
  // the rest.
  const bool signs = hybrid && config.order == Order::random;
  const auto levels_of = [&](const MetricSpec& spec, Estimator estimator) {
    const std::size_t count = spec.gating == Gating::gated ? gated_count : 1;
    const double sign_share = signs && estimator != Estimator::ratio ? k_sign_share : 0.0;
    const double sign_alpha = (1.0 - config.confidence) * sign_share / static_cast<double>(count);
    if (!hybrid || !has_confidence_sequence(estimator)) {
      return Levels{per_metric_confidence(config.confidence, count, 1.0 - sign_share), 0,
                    per_metric_confidence(config.confidence, 1, 1.0 - sign_share), 0, sign_alpha};
    }
    const double sequence_share = k_sequence_share - sign_share;
    return Levels{per_metric_confidence(config.confidence, count, 1.0 - k_sequence_share),
                  per_metric_confidence(config.confidence, count, sequence_share),
                  per_metric_confidence(config.confidence, 1, 1.0 - k_sequence_share),
                  per_metric_confidence(config.confidence, 1, sequence_share), sign_alpha};
  };
  if (gated_count > 1) {
    analysis.notes.push_back(
        {NoteWeight::detail,
         fmt::format(
             "Bonferroni: {} gated metrics, each interval at {:.4g} % confidence (family-wise {:.4g} %) "
             "for a regression or an improvement; no change needs no correction: a metric whose "
             "interval at {:.4g} % lies inside its tolerance band has none (the pass claim errs "
             "with at most {:.4g} %)",
             gated_count, 100 * per_metric_confidence(config.confidence, gated_count, 1.0),
             100 * config.confidence, 100 * config.confidence, 100 * (1 - config.confidence))});
  }
  if (hybrid) {
    const double sign_share = signs ? k_sign_share : 0.0;
    const std::string sign_text =
        signs ? fmt::format(
                    ", or the sign sequence's test of a regression at one-sided α = {:.3g} (any "
                    "round)",
                    (1.0 - config.confidence) * k_sign_share / static_cast<double>(gated_count))
              : std::string(" (no sign sequence: it needs order: random)");
    analysis.notes.push_back(
        {NoteWeight::detail,
         fmt::format(
             "stopping: per gated metric the width rule's interval at {:.4g} %, the confidence sequence at "
             "{:.4g} % (mean and trimmed estimators){}, whichever settles first (α split {:.0f} : {:.0f} : "
             "{:.0f}){}",
             100 * per_metric_confidence(config.confidence, gated_count, 1.0 - k_sequence_share),
             100 * per_metric_confidence(config.confidence, gated_count, k_sequence_share - sign_share),
             sign_text, 100 * (1 - k_sequence_share), 100 * (k_sequence_share - sign_share), 100 * sign_share,
             config.min_rounds < k_sequence_burn_in_rounds
                 ? fmt::format("; the confidence sequence from round {} (min_rounds {} applies to the width "
                               "rule and to deterministic metrics)",
                               k_sequence_burn_in_rounds, config.min_rounds)
                 : "")});
  }

  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const MetricSpec& spec = config.metrics[m];
    const bool gated = spec.gating == Gating::gated;
    const auto& a = series.baseline[m];
    const auto& b = series.candidate[m];
    MetricResult result;
    const int min_rounds = min_rounds_of(m);
    const bool metric_enough = measured >= min_rounds;
    const Readings& read = readings[m];
    const Estimator estimator = estimator_of(m);
    const auto rounds = static_cast<std::size_t>(measured);
    const bool usable_zeros = zeros_allowed(spec) && !mostly_zero(read, rounds);
    if (!read.invalid && (!read.any_zero() || usable_zeros)) {
      // A deterministic metric's sequence may start with its minimum rounds; any other's needs
      // k_sequence_burn_in_rounds, however low min_rounds is set.
      const int burn_in_rounds =
          deterministic[m] ? min_rounds : std::max(min_rounds, k_sequence_burn_in_rounds);
      const auto corrected = correct_cpu_effect(estimator, a, b, series.assignment);
      result = analyze_metric(config, spec, estimator, levels_of(spec, estimator), a, corrected.candidate,
                              burn_in_rounds, metric_enough);
      if (corrected.effect) {
        constexpr double k_z95 = 1.959964;
        result.cpu_effect = std::expm1(corrected.effect->effect);
        result.cpu_effect_ci = {
            std::expm1(corrected.effect->effect - k_z95 * corrected.effect->standard_error),
            std::expm1(corrected.effect->effect + k_z95 * corrected.effect->standard_error)};
      }
      if (read.any_zero()) {
        // The legend names the estimator of each metric; the counts are a detail.
        analysis.notes.push_back(
            {NoteWeight::detail,
             fmt::format("{}: {}, at its resolution: change estimated as the ratio of means (delta-method "
                         "interval)",
                         spec.name, zero_counts(read, rounds, spec.unit))});
      }
    } else {
      if (gated && !read.invalid && zeros_allowed(spec)) {
        throw Error(fmt::format("metric \"{}\": {}: most runs are below its resolution ({}). Make "
                                "each run longer (repeat the work inside the benchmark), or gate another "
                                "metric (wall_time, counted instructions)",
                                spec.name, zero_counts(read, rounds, spec.unit), resolution_of(spec, read)),
                    ExitCode::usage);
      }
      const auto where = first_unusable(series, m, read.invalid ? Unusable::invalid : Unusable::non_positive);
      if (gated) {
        throw Error(fmt::format("metric \"{}\": {}; a ratio needs positive values (is the metric read "
                                "correctly?{})",
                                spec.name, where,
                                read.invalid ? "" : " if 0 is a valid reading, set \"zeros: allowed\""),
                    ExitCode::benchmark_failed);
      }
      // Report-only metrics such as system time of a short program are often exactly zero;
      // they are shown without a ratio rather than stopping the gate.
      result.spec = spec;
      result.estimator = estimator;
      result.confidence = levels_of(spec, estimator).interval;
      result.has_ratio = false;
      result.estimate.note =
          read.invalid || !zeros_allowed(spec)
              ? fmt::format("no ratio: {}", where)
              : fmt::format("no ratio: {}, below its resolution", zero_counts(read, rounds, spec.unit));
    }
    result.estimate.rounds = a.size();
    result.min_rounds = min_rounds;
    result.enough_rounds = metric_enough;
    if (gated && metric_enough && min_rounds < config.min_rounds && finality == Finality::final) {
      const std::string agreement =
          determinism_of(spec) == Determinism::counted
              ? fmt::format("every run of each side within {:.3g} % of the others", spec.threshold)
              : std::string("every run of each side read the same value");
      analysis.notes.push_back(
          {NoteWeight::detail, fmt::format("{}: {}: deterministic, so {} rounds sufficed (min_rounds {})",
                                           spec.name, agreement, min_rounds, config.min_rounds)});
    }
    if (finality == Finality::final) {  // for the report only; sorting every round would cost O(n log n) each
      result.baseline_median = a.empty() ? 0.0 : stats::median(a);
      result.candidate_median = b.empty() ? 0.0 : stats::median(b);
      result.verdict =
          final_verdict(result.verdict, result.estimate.status == stats::EstimateStatus::unstable);
    }
    if (result.settled_by == SettledBy::signs) {
      analysis.notes.push_back(
          {gated ? NoteWeight::key : NoteWeight::detail,
           fmt::format("{}: regression shown by its sign sequence: {} of {} rounds {} by more than {:.3g} % "
                       "(a test valid at any round, from each round's random order)",
                       spec.name, result.signs_beyond, result.signs_rounds,
                       spec.direction == Direction::higher_is_better ? "lower" : "higher",
                       100 * std::max(spec.threshold, spec.tolerance))});
    }
    if (gated && !result.estimate.note.empty()) {
      // Why a metric is still undecided is what a reader of this verdict needs; for a settled
      // metric the note (batching, a widened interval) is a detail.
      analysis.notes.push_back({is_undecided(result.verdict) ? NoteWeight::key : NoteWeight::detail,
                                fmt::format("{}: {}", spec.name, result.estimate.note)});
    }
    analysis.metrics.push_back(std::move(result));
  }
  if (config.correction == Correction::holm) {
    apply_holm(config, analysis, finality);
  }
  analysis.fewest_open_projected_rounds = fewest_open_projected_rounds(analysis.metrics);
  if (finality == Finality::final) {
    summarize_undecided(analysis);
    note_cpu_effects(config, runs, analysis, analysis.notes);
    note_duet_interference(config, runs, analysis.notes);
  }

  std::vector<GatedMetric> gated;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      gated.push_back({result.verdict, result.estimate.status == stats::EstimateStatus::ok ||
                                               result.settled_by == SettledBy::signs
                                           ? result.settled_by
                                           : SettledBy::none});
    }
  }
  const OverallVerdict overall = overall_verdict(gated, enough_rounds, finality);
  analysis.verdict = overall.verdict;
  analysis.can_stop = overall.can_stop;
  analysis.stop = overall.end;
  return analysis;
}

}  // namespace perfduel
