#pragma once

#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "exit_codes.hpp"
#include "stats/estimate.hpp"

namespace perfduel {

enum class Side { baseline, candidate };

// One finished run of one side.
struct RunRecord {
  int round = 0;  // 0-based, warm-up rounds included
  Side side = Side::baseline;
  bool warmup = false;
  std::vector<double> values;  // one per Config::metrics entry, same order
};

enum class Verdict {
  pending,       // still sampling
  no_change,     // interval narrower than the threshold and within the tolerance band
  improvement,   // interval entirely better than −tolerance
  regression,    // interval entirely worse than +tolerance
  inconclusive,  // budget spent before the interval was narrow enough
  unstable,      // the estimator refused to judge (see the note)
};

// Whether sampling may continue (verdicts stay pending) or has ended (pending becomes
// inconclusive).
enum class Finality { ongoing, final };

struct MetricResult {
  MetricSpec spec;
  double confidence = 0;       // per-metric level after the multiple-comparison correction
  double baseline_median = 0;  // in the metric's own unit
  double candidate_median = 0;
  double change = 0;         // relative: exp(center) − 1
  stats::Interval ci;        // relative: exp(ci) − 1
  stats::Estimate estimate;  // log-ratio space, with batching details
  Verdict verdict = Verdict::pending;
  bool width_reached = false;  // ratio interval: hi / lo − 1 <= spec.threshold
  bool has_ratio = true;       // false: a zero or negative value, so no change or verdict to show
};

struct Analysis {
  std::vector<MetricResult> metrics;   // same order as Config::metrics
  Verdict verdict = Verdict::pending;  // overall, over the gated metrics
  bool can_stop = false;               // the stopping rule is satisfied
  int measured_rounds = 0;             // complete rounds after warm-up
  int dropped_rounds = 0;              // measured rounds dropped as detected warm-up
  std::vector<std::string> notes;      // batching applied, correction used, ...
};

// Analyses all runs so far: pairs each measured round, estimates every metric, applies the
// multiple-comparison correction and the verdict rules. Pure: the same `config` and `runs`
// always give the same Analysis, so a saved report re-analyses to the same verdict.
// Throws perfduel::Error when a value cannot be used (zero or negative where a log is taken).
Analysis analyze(const Config& config, std::span<const RunRecord> runs, Finality finality);

// Verdict name as used in reports: "no-change", "regression", ...
std::string to_string(Verdict verdict);

}  // namespace perfduel

namespace perfduel {

// The process exit code for an overall `verdict`: regression → 1; inconclusive or unstable
// → as `policy` says (skip → 77); otherwise 0.
ExitCode exit_code_for(Verdict verdict, InconclusivePolicy policy);

}  // namespace perfduel
