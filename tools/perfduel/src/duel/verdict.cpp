#include "duel/verdict.hpp"

#include <algorithm>
#include <cmath>

#include "stats/multiple.hpp"

namespace perfduel {

namespace {

// Why a duel that ended without a decision (or without a run) ended (end_reason); decided,
// regression_found and benchmark_failed need the analysis or the failure to explain them, and
// have no entry.
constexpr util::NameTable<DuelEnd, 6> k_end_reasons{
    {{DuelEnd::round_budget, "the round budget (max_rounds) ran out before every gated metric settled"},
     {DuelEnd::time_budget, "the time budget (max_seconds) ran out before every gated metric settled"},
     {DuelEnd::interrupted, "interrupted; partial results"},
     {DuelEnd::runs_ended, "the report's runs ended before every gated metric settled with these settings"},
     {DuelEnd::futile,
      "at the rate so far no open gated metric could settle within the budget: stopped early"},
     {DuelEnd::identical,
      "the baseline and the candidate are identical programs (the same executable, shared libraries and "
      "files named by their arguments): nothing to measure, no change"}}};

}  // namespace

std::string to_string(Verdict verdict) {
  return std::string(util::name_of(k_verdict_names, verdict));
}

std::string to_string(SettledBy settled_by) {
  return std::string(util::name_of(k_settled_by_rules, settled_by));
}

bool is_undecided(Verdict verdict) {
  return verdict == Verdict::pending || verdict == Verdict::inconclusive || verdict == Verdict::unstable;
}

std::string to_string(DuelEnd end) {
  return std::string(util::name_of(k_duel_end_names, end));
}

std::optional<DuelEnd> duel_end_from_string(std::string_view text) {
  return util::value_of(k_duel_end_names, text);
}

std::string end_reason(DuelEnd end) {
  return std::string(util::name_of(k_end_reasons, end));
}

Verdict verdict_of_side(Direction direction, bool above) {
  const bool worse = direction == Direction::lower_is_better ? above : !above;
  return worse ? Verdict::regression : Verdict::improvement;
}

Verdict verdict_outside_band(const stats::Interval& ci, const MetricSpec& spec) {
  const double tau = spec.tolerance;
  const bool above = ci.lo > tau;
  const bool below = ci.hi < -tau;
  if (!above && !below) {
    return Verdict::pending;
  }
  return verdict_of_side(spec.direction, above);
}

double signs_bound(const MetricSpec& spec) {
  return std::max(spec.threshold, spec.tolerance);
}

bool interval_shows(const stats::Interval& ci, Verdict verdict, const MetricSpec& spec) {
  return verdict_outside_band(ci, spec) == verdict;
}

Verdict final_verdict(Verdict verdict, bool unstable) {
  if (verdict != Verdict::pending) {
    return verdict;
  }
  return unstable ? Verdict::unstable : Verdict::inconclusive;
}

Verdict holm_verdict(bool rejected, bool above, Direction direction, bool width_settled, Finality finality) {
  if (rejected) {
    return verdict_of_side(direction, above);
  }
  const Verdict verdict = width_settled ? Verdict::no_change : Verdict::pending;
  return finality == Finality::final ? final_verdict(verdict, false) : verdict;
}

Verdict judge_width(const stats::Interval& ci, double change, const MetricSpec& spec, bool width_reached,
                    bool enough_rounds) {
  const Verdict outside = verdict_outside_band(ci, spec);
  if (outside != Verdict::pending) {
    return outside;
  }
  if (!width_reached || !enough_rounds) {
    return Verdict::pending;
  }
  const bool beyond = std::abs(change) > spec.tolerance;
  const bool excludes_zero = ci.lo > 0 || ci.hi < 0;
  return beyond && excludes_zero ? verdict_of_side(spec.direction, change > 0) : Verdict::no_change;
}

Verdict judge_sequence(const stats::Interval& sequence, const MetricSpec& spec) {
  const Verdict outside = verdict_outside_band(sequence, spec);
  if (outside != Verdict::pending) {
    return outside;
  }
  const double tau = spec.tolerance;
  return tau > 0 && sequence.lo >= -tau && sequence.hi <= tau ? Verdict::no_change : Verdict::pending;
}

std::optional<Settlement> settle_inside_band(const stats::Interval& ci, const MetricSpec& spec,
                                             SettledBy by) {
  if (judge_sequence(ci, spec) != Verdict::no_change) {
    return std::nullopt;
  }
  return Settlement{Verdict::no_change, by};
}

Settlement settle_by_width(const stats::Interval& ci, double change, const MetricSpec& spec,
                           bool width_reached, bool enough_rounds) {
  return {judge_width(ci, change, spec, width_reached, enough_rounds),
          width_reached && enough_rounds ? SettledBy::width : SettledBy::none};
}

Settlement settle_anytime(const Settlement& width, const stats::Interval& sequence, const MetricSpec& spec,
                          bool enough_rounds) {
  const Verdict verdict = judge_sequence(sequence, spec);
  if (!enough_rounds || verdict == Verdict::pending) {
    return width;
  }
  return {verdict, SettledBy::sequence};
}

Settlement settle_hybrid(const Settlement& width, const stats::Interval& sequence, const MetricSpec& spec) {
  const Verdict verdict = judge_sequence(sequence, spec);
  const bool outside = verdict == Verdict::regression || verdict == Verdict::improvement;
  if (verdict == Verdict::pending || (width.settled_by != SettledBy::none && !outside)) {
    return width;
  }
  return {verdict, SettledBy::sequence};
}

Settlement settle_identical() {
  return {Verdict::no_change, SettledBy::identical};
}

Settlement settle_by_signs(const Settlement& current, bool rejected) {
  if (!rejected || (current.verdict == Verdict::regression && current.settled_by != SettledBy::none)) {
    return current;
  }
  return {Verdict::regression, SettledBy::signs};
}

bool may_settle_by_equivalence(const Settlement& current) {
  return current.verdict != Verdict::regression && current.verdict != Verdict::improvement &&
         current.settled_by == SettledBy::none;
}

std::vector<HolmDecision> holm_step_down(std::span<const HolmMetric> gated, double alpha, Finality finality) {
  std::vector<double> p_values;
  p_values.reserve(gated.size());
  for (const auto& metric : gated) {
    p_values.push_back(metric.has_estimate ? metric.p_value : std::nan(""));
  }
  const auto rejected = stats::holm_rejections(p_values, alpha);
  const auto levels = stats::holm_levels(p_values, alpha);
  std::vector<HolmDecision> decisions;
  decisions.reserve(gated.size());
  for (std::size_t i = 0; i < gated.size(); ++i) {
    const HolmMetric& metric = gated[i];
    const Verdict verdict = metric.settlement.verdict;
    const SettledBy settled_by = metric.settlement.settled_by;
    HolmDecision decision{verdict, false, levels[i]};
    if (metric.has_estimate && settled_by != SettledBy::sequence && settled_by != SettledBy::signs) {
      const bool was_decided = verdict == Verdict::regression || verdict == Verdict::improvement;
      if (rejected[i] || was_decided) {
        decision.verdict =
            holm_verdict(rejected[i], metric.above, metric.direction, metric.width_settled, finality);
      }
      decision.by_holm = rejected[i] && !was_decided;
    }
    decisions.push_back(decision);
  }
  return decisions;
}

GatedMetric gated_metric(const Settlement& settlement, bool has_interval) {
  const bool needs_no_interval =
      settlement.settled_by == SettledBy::signs || settlement.settled_by == SettledBy::count_of_zero;
  return {settlement.verdict, has_interval || needs_no_interval ? settlement.settled_by : SettledBy::none};
}

OverallVerdict overall_verdict(std::span<const GatedMetric> gated, bool enough_rounds, Finality finality) {
  bool any_regression = false;
  bool settled_regression = false;
  bool any_improvement = false;
  bool any_undecided = false;
  bool all_settled = enough_rounds;
  for (const auto& metric : gated) {
    const bool settled = metric.settled_by != SettledBy::none;
    any_regression |= metric.verdict == Verdict::regression;
    // Only a sequence (confidence or sign) may end the duel on one metric: it is valid however often it
    // is looked at. A width-rule verdict is valid at the moment its metric settles; looked at
    // again each round while other metrics are pending, it would get many chances to turn
    // into a regression (4 gated metrics: 5.65 % family-wise false alarms instead of 3.8 %,
    // docs/validation.md), so it waits for the common stop like every other verdict. A count of 0
    // on one side only is no estimate that could turn: each run of one side read 0 and each of the
    // other did not, so it may end the duel too.
    settled_regression |=
        metric.verdict == Verdict::regression &&
        (metric.settled_by == SettledBy::sequence || metric.settled_by == SettledBy::signs ||
         metric.settled_by == SettledBy::count_of_zero);
    any_improvement |= metric.verdict == Verdict::improvement;
    any_undecided |= is_undecided(metric.verdict);
    all_settled &= settled;
  }
  OverallVerdict overall;
  overall.can_stop = all_settled || settled_regression;
  overall.end = all_settled ? DuelEnd::decided : DuelEnd::regression_found;
  if (any_regression && (finality == Finality::final || overall.can_stop)) {
    overall.verdict = Verdict::regression;
  } else if (any_undecided) {
    overall.verdict = finality == Finality::final ? Verdict::inconclusive : Verdict::pending;
  } else if (finality == Finality::ongoing && !all_settled) {
    overall.verdict = Verdict::pending;
  } else {
    overall.verdict = any_improvement ? Verdict::improvement : Verdict::no_change;
  }
  return overall;
}

DuelEnd reanalysis_end(DuelEnd saved, bool analysis_can_stop, DuelEnd analysis_stop) {
  switch (saved) {
    case DuelEnd::benchmark_failed:
    case DuelEnd::interrupted:
    case DuelEnd::identical:
      return saved;
    case DuelEnd::round_budget:
    case DuelEnd::time_budget:
    case DuelEnd::runs_ended:
    case DuelEnd::futile:
      return analysis_can_stop ? analysis_stop : saved;
    case DuelEnd::decided:
    case DuelEnd::regression_found:
      break;
  }
  return analysis_can_stop ? analysis_stop : DuelEnd::runs_ended;
}

bool budget_is_futile(double fewest_projected_rounds, double budget_rounds) {
  return std::isfinite(budget_rounds) && budget_rounds > 0 && !std::isnan(fewest_projected_rounds) &&
         fewest_projected_rounds > k_futility_margin * budget_rounds;
}

std::string verdict_word(DuelEnd end, Verdict verdict) {
  if (end == DuelEnd::benchmark_failed) {
    return "error";
  }
  if (end == DuelEnd::interrupted) {
    return "interrupted";
  }
  return to_string(verdict);
}

ExitCode exit_code_for(Verdict verdict, InconclusivePolicy policy) {
  switch (verdict) {
    case Verdict::regression:
      return ExitCode::regression;
    case Verdict::inconclusive:
    case Verdict::unstable:
    case Verdict::pending:
      switch (policy) {
        case InconclusivePolicy::skip:
          return ExitCode::inconclusive;
        case InconclusivePolicy::fail:
          return ExitCode::regression;
        case InconclusivePolicy::pass:
          return ExitCode::pass;
      }
      return ExitCode::inconclusive;
    case Verdict::no_change:
    case Verdict::improvement:
      return ExitCode::pass;
  }
  return ExitCode::pass;
}

ExitCode exit_code_for(DuelEnd end, Verdict verdict, InconclusivePolicy policy) {
  switch (end) {
    case DuelEnd::interrupted:
      return ExitCode::interrupted;
    case DuelEnd::benchmark_failed:
      return ExitCode::benchmark_failed;
    default:
      return exit_code_for(verdict, policy);
  }
}

}  // namespace perfduel
