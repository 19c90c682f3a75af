#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "exit_codes.hpp"
#include "stats/paired.hpp"
#include "util/name_table.hpp"

// Where a duel's outcome is decided: the verdict of one metric from its interval, which stopping
// rule settles it, Holm's step-down over the gated metrics, pending becoming inconclusive at the
// end, the verdict of the whole gate, why the duel ended, and the process exit code. The
// statistics that produce the intervals live in stats/; duel/analysis.cpp feeds them in here.
namespace perfduel {

enum class Verdict {
  pending,  // still sampling
  // No change: the interval is narrower than the threshold and not entirely outside ±tolerance
  // (it may cross a band edge), or the confidence sequence lies entirely inside ±tolerance.
  no_change,
  improvement,   // interval entirely better than −tolerance
  regression,    // interval entirely worse than +tolerance
  inconclusive,  // budget spent before the metric settled
  unstable,      // the estimator refused to judge (see the note)
};

// Verdict names as used in reports: "no-change", "regression", ...
constexpr util::NameTable<Verdict, 6> k_verdict_names{{{Verdict::pending, "pending"},
                                                       {Verdict::no_change, "no-change"},
                                                       {Verdict::improvement, "improvement"},
                                                       {Verdict::regression, "regression"},
                                                       {Verdict::inconclusive, "inconclusive"},
                                                       {Verdict::unstable, "unstable"}}};
std::string to_string(Verdict verdict);

// Whether sampling may continue (verdicts stay pending) or has ended (pending becomes
// inconclusive).
enum class Finality { ongoing, final };

// The stopping rule that settled a metric.
enum class SettledBy {
  none,      // not settled (yet)
  width,     // its interval became narrower than the threshold (cbdr's width rule)
  sequence,  // its anytime-valid confidence sequence left the tolerance band, or lies inside it
  signs,  // its sign sequence showed the rounds beyond the threshold (a regression; stats/sign_sequence.hpp)
  // The two sides run identical programs (duel/programs.hpp): no change, with nothing measured.
  identical,
  // A count that read 0 on every run of one side and above 0 on every run of the other (allocations
  // new to a loop that made none, or all taken out of it; duel/zero_readings.hpp): certain, with
  // no ratio, once the metric has its minimum rounds.
  count_of_zero,
};

// The report words of the settling rules ("settled_by" in the JSON report); none has none.
constexpr util::NameTable<SettledBy, 5> k_settled_by_names{{{SettledBy::width, "width"},
                                                            {SettledBy::sequence, "sequence"},
                                                            {SettledBy::signs, "signs"},
                                                            {SettledBy::identical, "identical-programs"},
                                                            {SettledBy::count_of_zero, "count-of-zero"}}};

// The rules' names in the report's sentences ("regression (confidence sequence)"); none has none.
constexpr util::NameTable<SettledBy, 5> k_settled_by_rules{
    {{SettledBy::width, "width rule"},
     {SettledBy::sequence, "confidence sequence"},
     {SettledBy::signs, "sign sequence"},
     {SettledBy::identical, "identical programs"},
     {SettledBy::count_of_zero, "count of 0 on one side"}}};

// "width rule", "confidence sequence", "sign sequence", or "" for none (k_settled_by_rules).
std::string to_string(SettledBy settled_by);

// Whether `verdict` leaves its metric undecided: pending, inconclusive or unstable.
bool is_undecided(Verdict verdict);

// A metric's verdict and the rule that settled it (none: not settled, whatever the verdict).
struct Settlement {
  Verdict verdict = Verdict::pending;
  SettledBy settled_by = SettledBy::none;
};

// A change known to lie above (`above`) or below the tolerance band: a regression or an
// improvement, by `direction`.
Verdict verdict_of_side(Direction direction, bool above);

// The verdict an interval gives on its own: regression or improvement when `ci` (relative
// change, exp(log-ratio) − 1) lies entirely outside the tolerance band [−τ, +τ] of `spec`,
// on the side its direction calls worse or better; pending otherwise.
Verdict verdict_outside_band(const stats::Interval& ci, const MetricSpec& spec);

// Whether the interval `ci` shows `verdict` on its own (verdict_outside_band): a regression that
// its sign sequence settled may have an interval that still reaches into the band.
bool interval_shows(const stats::Interval& ci, Verdict verdict, const MetricSpec& spec);

// The width rule's verdict: outside the band as above; otherwise, once the width rule is met
// (`width_reached`) after the minimum rounds (`enough_rounds`), a narrow interval that crosses a
// band edge is judged by its estimate `change`: beyond the tolerance, and the interval excluding
// 0, it is a regression or an improvement; else no change. Pending before.
// The definition of no change, the same in docs/how-it-decides.md and docs/validation.md: the
// interval is narrower than the threshold and is not shown beyond ±tolerance (entirely outside
// it, or excluding 0 with its estimate outside it), or the interval at the uncorrected level or
// the confidence sequence lies entirely inside ±tolerance.
// Judging by the estimate keeps a change of 1.5 × the tolerance from passing on an interval
// that merely touches the band; the interval must still exclude 0 at its level, so no false
// alarm is added where there is no change.
Verdict judge_width(const stats::Interval& ci, double change, const MetricSpec& spec, bool width_reached,
                    bool enough_rounds);

// A confidence sequence's verdict: outside the band as above; no change when `sequence`
// lies inside the band (possible only with a tolerance > 0); pending otherwise.
Verdict judge_sequence(const stats::Interval& sequence, const MetricSpec& spec);

// The width rule's settlement of a metric: judge_width's verdict (same parameters), settled by
// the width rule once the width is reached after the minimum rounds.
Settlement settle_by_width(const stats::Interval& ci, double change, const MetricSpec& spec,
                           bool width_reached, bool enough_rounds);

// Anytime stopping, where the interval is the confidence sequence `sequence`: any verdict
// judge_sequence gives it after the minimum rounds (`enough_rounds`) settles the metric, whenever
// it is given, over the width rule's `width` (a sequence inside the band settles no change before
// it is narrow); `width` otherwise.
Settlement settle_anytime(const Settlement& width, const stats::Interval& sequence, const MetricSpec& spec,
                          bool enough_rounds);

// Hybrid stopping: the confidence sequence `sequence` settles the metric as judge_sequence says
// when the width rule has not (`width`), and over it when the sequence lies outside the band:
// only a sequence may end the duel on one metric (overall_verdict), so a +98 % regression that
// the width rule settled first must not wait for nine other benchmarks. The verdict is the same
// (the interval lies inside the sequence, around the same centre). `width` otherwise.
Settlement settle_hybrid(const Settlement& width, const stats::Interval& sequence, const MetricSpec& spec);

// The relative change the sign sequence counts rounds beyond: the larger of the threshold and
// the tolerance of `spec`.
double signs_bound(const MetricSpec& spec);

// The settlement of every metric when the two sides run identical programs (the same
// executable, shared libraries and argument files; duel/programs.hpp): no change, certain
// without a single run, so it is settled before the warm-up.
Settlement settle_identical();

// The sign sequence's settlement: a regression when its test `rejected`, at any round and over
// any settlement of `current` but a regression (stats/sign_sequence.hpp); `current` otherwise.
Settlement settle_by_signs(const Settlement& current, bool rejected);

// Whether the pass claim's uncorrected interval may still settle a metric as no change
// (duel/settling.cpp, settle_by_equivalence): not when `current` is settled, or a regression or an
// improvement.
bool may_settle_by_equivalence(const Settlement& current);

// The pass claim's settlement by the uncorrected interval `ci` of rule `by`: no change when `ci`
// lies inside the tolerance band (judge_sequence); nothing otherwise.
std::optional<Settlement> settle_inside_band(const stats::Interval& ci, const MetricSpec& spec, SettledBy by);

// Why the duel ended.
enum class DuelEnd {
  decided,           // every gated metric settled
  regression_found,  // a gated metric settled as a regression; the others cannot change the verdict
  round_budget,      // max_rounds reached
  time_budget,       // max_seconds reached (or the next round would exceed it)
  benchmark_failed,  // a run failed or lacked a metric; see DuelOutcome::failure
  interrupted,       // SIGINT/SIGTERM/SIGHUP
  runs_ended,        // a re-analysis: the report's runs ended before every gated metric settled
  futile,            // no open gated metric could settle within the budget at the rate so far
  identical,         // nothing to measure: the two sides run identical programs (settle_identical)
};

// The report words of the duel ends, for writing and reading.
constexpr util::NameTable<DuelEnd, 9> k_duel_end_names{{{DuelEnd::decided, "decided"},
                                                        {DuelEnd::regression_found, "regression-found"},
                                                        {DuelEnd::round_budget, "round-budget"},
                                                        {DuelEnd::time_budget, "time-budget"},
                                                        {DuelEnd::benchmark_failed, "benchmark-failed"},
                                                        {DuelEnd::interrupted, "interrupted"},
                                                        {DuelEnd::runs_ended, "runs-ended"},
                                                        {DuelEnd::futile, "futile"},
                                                        {DuelEnd::identical, "identical-programs"}}};

// The report word for `end` ("decided", "round-budget", ...) and back; nullopt for a word
// that names no end.
std::string to_string(DuelEnd end);
std::optional<DuelEnd> duel_end_from_string(std::string_view text);

// Why a duel that ended without a decision ended, in words: "the round budget (max_rounds)
// ran out before every gated metric settled", "interrupted; partial results", and why one with
// nothing to measure did ("the baseline and the candidate are identical programs ..."); empty
// for the ends that need the analysis or the failure to explain them (decided,
// regression_found, benchmark_failed).
std::string end_reason(DuelEnd end);

// Why a re-analysis of a report's runs ended, with `analysis_can_stop` and `analysis_stop` from
// the new analysis: as the report says (`saved`) when its duel did not run to its end (a failed
// run, an interrupt); the new analysis's stop when it can stop; else the saved budget end, or
// runs_ended when the saved duel was decided by settings under which these runs do not settle;
// identical programs stay so, whatever the settings (no run to re-decide).
DuelEnd reanalysis_end(DuelEnd saved, bool analysis_can_stop, DuelEnd analysis_stop);

// A metric's verdict when the duel ends: pending becomes inconclusive, or unstable when its
// estimate is (`unstable`: the min estimator's halves disagree); any other verdict stays.
Verdict final_verdict(Verdict verdict, bool unstable);

// A gated metric's verdict under Holm's step-down: when its test of "inside the band" is
// `rejected`, a regression or an improvement by the side its estimate lies on (`above` no change)
// and its `direction`; otherwise what the width rule leaves (no-change once `width_settled`, else
// pending, and at the end, `finality`, inconclusive).
Verdict holm_verdict(bool rejected, bool above, Direction direction, bool width_settled, Finality finality);

// One gated metric as Holm's step-down sees it.
struct HolmMetric {
  // Whether it has an estimate with an interval; one without is never rejected, but is still one
  // of the family.
  bool has_estimate = false;
  double p_value = 0;     // its estimate's test of "inside the tolerance band"
  Settlement settlement;  // before Holm: the width rule's, or a sequence's
  bool above = false;     // its estimate lies above no change
  Direction direction = Direction::lower_is_better;
  bool width_settled = false;  // the width rule settled it (width reached, enough rounds)
};

struct HolmDecision {
  Verdict verdict = Verdict::pending;
  // A regression or an improvement that Holm found where the width rule's (Bonferroni) interval
  // did not: the interval shown still touches the tolerance band, which a note says.
  bool by_holm = false;
  double level = 0;  // the level its p-value was tested at (stats::holm_levels)
};

// Holm's step-down (stats/multiple.hpp) as the decision rule over the `gated` metrics at family
// level `alpha`. Holm judges a metric with an estimate that no sequence (confidence or sign)
// settled: under hybrid stopping Holm decides with the width rule's share of α, and a metric a
// sequence settled keeps that decision. A judged metric whose test is rejected is a regression or an
// improvement by its side; one the width rule had decided but Holm does not reject falls back to no change or
// pending (holm_verdict; with consistent p-values a Bonferroni exclusion is always a Holm rejection, and were
// it not, the two rules would not contradict each other silently); any other keeps its verdict. One decision
// per metric, in order.
std::vector<HolmDecision> holm_step_down(std::span<const HolmMetric> gated, double alpha, Finality finality);

// What the gated metrics say together, after each has its verdict and settling rule.
struct GatedMetric {
  Verdict verdict = Verdict::pending;
  SettledBy settled_by = SettledBy::none;
};

// A gated metric's part in the overall verdict: its `verdict`, and the rule that settled it,
// which counts only with an interval (`has_interval`), or when it is the sign sequence or a count
// of 0 on one side (which need none).
GatedMetric gated_metric(const Settlement& settlement, bool has_interval);

struct OverallVerdict {
  Verdict verdict = Verdict::pending;
  bool can_stop = false;
  DuelEnd end = DuelEnd::decided;  // why the duel may stop (meaningful when `can_stop`)
};

// Combines the gated metrics: the duel may stop when every one is settled (after the minimum
// rounds, `enough_rounds`), or at once when a confidence sequence has settled one as a
// regression — the gate fails whatever the others would say. Overall: a regression in any
// gated metric fails (at the stop, or at the end of the budget); an undecided one leaves the
// gate undecided; otherwise it passes, as an improvement if any gated metric improved. With
// `finality` final, pending becomes inconclusive.
OverallVerdict overall_verdict(std::span<const GatedMetric> gated, bool enough_rounds, Finality finality);

// How far beyond the budget a projection must reach before the duel stops as futile: the
// projection scales the rounds so far by the square of how much the interval must still shrink,
// and from 20 rounds σ's estimate alone is uncertain by about ±16 % (±32 % once squared).
constexpr double k_futility_margin = 3.0;
// The share of the budget's rounds a duel runs before it may stop as futile: from 20 rounds a
// single wild round can still triple a spread's estimate; a fifth of the budget dilutes it.
constexpr double k_futility_share = 0.2;

// Whether the duel should stop now as futile: `fewest_projected_rounds`, the fewest rounds any
// open gated metric needs at the rate so far (Analysis::fewest_open_projected_rounds), exceeds
// k_futility_margin × `budget_rounds`, the rounds the budget allows in all. Stopping then
// gives up nothing a fuller run would likely give, and says at once what the budget reaches.
bool budget_is_futile(double fewest_projected_rounds, double budget_rounds);

// The overall verdict word of a finished duel: the verdict's name, or "error" /
// "interrupted" when the duel did not run to its end.
std::string verdict_word(DuelEnd end, Verdict verdict);

// The process exit code for an overall `verdict`: regression → 1; inconclusive or unstable
// → as `policy` says (skip → 77); otherwise 0.
ExitCode exit_code_for(Verdict verdict, InconclusivePolicy policy);

// The exit code of a finished duel: interrupted → 130, a failed run → 3, otherwise by the
// overall verdict and `policy`.
ExitCode exit_code_for(DuelEnd end, Verdict verdict, InconclusivePolicy policy);

}  // namespace perfduel
