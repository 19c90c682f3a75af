#pragma once

#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/determinism.hpp"
#include "duel/projection.hpp"
#include "duel/verdict.hpp"
#include "stats/estimate.hpp"
#include "util/name_table.hpp"

namespace perfduel {

enum class Side { baseline, candidate };

// The report names of the sides ("baseline", "candidate"), for messages, writing and reading.
constexpr util::NameTable<Side, 2> k_side_names{
    {{Side::baseline, "baseline"}, {Side::candidate, "candidate"}}};

// One finished run of one side.
struct RunRecord {
  int round = 0;  // 0-based, warm-up rounds included
  Side side = Side::baseline;
  bool warmup = false;
  std::vector<double> values;  // one per Config::metrics entry, same order
  int cpu = -1;                // order: duet: the CPU the run was pinned to; -1 otherwise
  // Order duet: a warm-up run made alone on its CPU, after the last warm-up round, to measure
  // how much running at the same time slows the two (note_duet_interference in notes.cpp).
  bool alone = false;
};

struct MetricResult {
  MetricSpec spec;
  // The estimator used: spec.estimator, or Estimator::ratio once a metric whose zeros are
  // allowed (zeros_allowed) has read 0 (see zero_readings.cpp).
  Estimator estimator = Estimator::mean;
  // The level of `ci`, after the multiple-comparison correction: the width rule's interval's, or
  // the confidence sequence's when the sequence settled the metric and `ci` is the sequence.
  double confidence = 0;
  double baseline_median = 0;  // in the metric's own unit
  double candidate_median = 0;
  double change = 0;         // relative: exp(center) − 1
  stats::Interval ci;        // relative: exp(ci) − 1
  stats::Estimate estimate;  // log-ratio space, with batching details
  Verdict verdict = Verdict::pending;
  bool width_reached = false;  // ratio interval: hi / lo − 1 <= spec.threshold
  // What the width rule compares with the threshold: the ratio interval's width with σ at its
  // stopping bound (NaN while there is no interval). Shown live, so a user sees why it goes on.
  double stopping_width = std::numeric_limits<double>::quiet_NaN();
  // Hybrid stopping: the anytime-valid confidence sequence (relative, like `ci`) at its share
  // of the error budget; empty before its burn-in or in the other modes.
  std::optional<stats::Interval> sequence;
  SettledBy settled_by = SettledBy::none;  // which rule settled this metric, if any
  // Settled by the sign sequence: the round it rejected at, and how many rounds by then lay
  // beyond the tolerance (0 otherwise).
  std::size_t signs_rounds = 0;
  std::size_t signs_beyond = 0;
  double signs_alpha = 0;  // the one-sided level of that test (Levels::signs)
  // Settled as no change by its interval at the uncorrected level lying inside ±tolerance
  // (the pass claim needs no Bonferroni, settling.cpp); `ci` and `confidence` are that interval's.
  bool equivalence = false;
  // At the rate so far, the measured rounds this metric needs to settle (projected_rounds):
  // the rounds so far once settled, NaN while it has no interval.
  double projected_rounds = std::numeric_limits<double>::quiet_NaN();
  bool has_ratio = true;  // false: values of zero, shown without a ratio
  // A count of allocations that read 0 on every run of this side and above 0 on every run of the
  // other (duel/zero_readings.hpp, zero_side_of): judged without a ratio, a regression (from 0) or
  // an improvement (to 0) settled by SettledBy::count_of_zero once it has its minimum rounds.
  std::optional<Side> zero_side;
  // Gated and not a regression, but its change worse than its tolerance and its interval wholly
  // worse than no change: a regression its interval has not shown beyond the tolerance (yet). A
  // failing suite names it apart from the undecided ones.
  bool likely_regression = false;
  // The minimum rounds this metric needed before it could settle: the configured minimum, or
  // k_deterministic_min_rounds while its runs are (near-)deterministic (see metric_plan.cpp).
  int min_rounds = 0;
  bool enough_rounds = false;  // the measured rounds reach `min_rounds`
  // Order duet: how much slower (+) the higher-numbered CPU of the pair ran this metric than
  // the other, with its 95 % interval, from the balanced assignment (stats/assignment.hpp);
  // taken out of the change and its interval. Empty for the other orders and duet-fixed.
  std::optional<double> cpu_effect;
  stats::Interval cpu_effect_ci;
};

// The minimum rounds of a metric whose runs are deterministic so far (is_deterministic).
constexpr int k_deterministic_min_rounds = 3;

// The fewest rounds before a confidence sequence may settle a metric that is not deterministic,
// whatever min_rounds says. The sequence is asymptotic: its variance is estimated from the rounds
// so far, and from a handful it is too often too small. Measured (docs/validation.md, "Burn-in of
// the confidence sequence"): at min_rounds 3 a burn-in of 3 rounds gave 15.5 % A/A false alarms on
// the ar1-side-0.5 model, 10 rounds 6.4 %, 20 rounds 4.9 % (at min_rounds 20: 4.3 %).
constexpr int k_sequence_burn_in_rounds = 20;

// The zero rule (see zero_readings.cpp) acts from this many measured rounds on: a gated metric
// shown (at 99.9 %) to read 0 in more than half of one side's runs is refused, exit code 2.
// Before, a metric that has read 0 cannot settle.
constexpr int k_zero_rule_rounds = 10;
constexpr double k_zero_rule_confidence = 0.999;

// How a note bears on the verdict. Key notes change how to read it: why a metric is undecided,
// what a number means when it is not what it seems, a warning about the machine; a person
// reading a CI log sees them by default. Details (the levels, the settings, which rule settled
// a metric) are shown with --verbose, in the JSON report and in the Markdown's details.
enum class NoteWeight { key, detail };

struct Note {
  NoteWeight weight = NoteWeight::detail;
  std::string text;
};

// The texts of `notes`, in order.
std::vector<std::string> note_texts(std::span<const Note> notes);

struct Analysis {
  std::vector<MetricResult> metrics;   // same order as Config::metrics
  Verdict verdict = Verdict::pending;  // overall, over the gated metrics
  bool can_stop = false;               // the stopping rule is satisfied
  DuelEnd stop = DuelEnd::decided;     // why the duel may stop, when `can_stop`
  int measured_rounds = 0;             // complete rounds after warm-up
  // The fewest projected rounds of the gated metrics still open (MetricResult::projected_rounds;
  // NaN when none is open or one has no projection yet): what budget_is_futile judges.
  double fewest_open_projected_rounds = std::numeric_limits<double>::quiet_NaN();
  // The gated metrics still open whose change is worse than their tolerance: what the duel may
  // go on for once a regression settled (naming_rounds, duel.hpp).
  int open_likely_regressions = 0;
  int dropped_rounds = 0;   // measured rounds dropped as detected warm-up
  std::vector<Note> notes;  // batching applied, correction used, ...
};

// Analyses all runs so far: pairs each measured round, estimates every metric, applies the
// multiple-comparison correction and the verdict rules. Pure: the same `config` and `runs`
// always give the same Analysis, so a saved report re-analyses to the same verdict.
// Throws perfduel::Error when a value cannot be used: exit code 3 for a negative or non-finite
// value, or a 0 in a metric whose zeros are not allowed (zeros_allowed); exit code 2 when most
// runs of a gated metric read 0, below its resolution (the zero rule, k_zero_rule_rounds).
Analysis analyze(const Config& config, std::span<const RunRecord> runs, Finality finality);

// Per metric of `config`, the log-ratios ln(candidate / baseline) of the measured rounds that have
// both runs, paired as analyze pairs them (warm-up rounds left out); empty for a metric with a
// value that has no log (0, negative, not finite). What calibration measures noise from.
std::vector<std::vector<double>> measured_log_ratios(const Config& config, std::span<const RunRecord> runs);

// The analysis of a duel whose two sides run identical programs (duel/programs.hpp), without a
// run: every metric of `config` is no change (settle_identical), its change exactly 0 with the
// point interval [0, 0] at certainty, and no medians (NaN: nothing was measured). Pure, like
// analyze, so a saved report of such a duel re-analyses to the same verdict.
Analysis analyze_identical(const Config& config);

}  // namespace perfduel
