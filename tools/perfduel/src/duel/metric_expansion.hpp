#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "util/expected.hpp"

namespace perfduel {

// Benchmarks that a pattern matched on one side only: not compared, but reported.
struct SuiteChanges {
  std::vector<std::string> added;    // metric names of benchmarks only the candidate runs
  std::vector<std::string> removed;  // metric names of benchmarks only the baseline runs
  // Metric names of benchmarks that measure nothing (is_unmeasurable): reported, not gated.
  std::vector<std::string> unmeasurable;
  // Metric names of benchmarks that Valgrind cannot count one by one, and why: reported, not gated.
  std::map<std::string, std::string> uncountable;

  bool empty() const {
    return added.empty() && removed.empty() && unmeasurable.empty() && uncountable.empty();
  }
};

// A time per iteration below this measures nothing: a twentieth of a CPU cycle at 5 GHz. A
// Google Benchmark loop whose work the compiler removed reads about 1e-6 ns (Google Benchmark
// prints 0.000 ns); one machine instruction per iteration reads 0.2-0.5 ns.
constexpr double k_unmeasurable_seconds = 1e-11;

// Whether `metric`, read as `baseline` and `candidate` from one run of each side, measures
// nothing: a Google Benchmark time (real_time or cpu_time) below k_unmeasurable_seconds on
// both sides. Its timer noise would only eat the budget of the benchmarks that do measure.
bool is_unmeasurable(const MetricSpec& metric, double baseline, double candidate);

struct MetricExpansion {
  std::vector<MetricSpec> metrics;  // every pattern replaced by one metric per benchmark
  SuiteChanges changes;
};

// Whether any of `metrics` is a benchmark pattern (config/config.hpp is_benchmark_pattern).
bool has_metric_patterns(std::span<const MetricSpec> metrics);

// The name of the metric that pattern `key` gives benchmark `benchmark`: "key/benchmark",
// e.g. "sort/BM_Sort/8". It keeps the benchmark's own name readable in every report.
std::string expanded_metric_name(const std::string& key, const std::string& benchmark);

// Replaces each benchmark pattern in `metrics`, in place, by one metric per benchmark of the
// first baseline and candidate runs (`baseline_output`, `candidate_output`) whose name it
// matches, each with the pattern's settings: baseline order, then benchmarks only the
// candidate has. A benchmark that an explicit metric (or an earlier pattern) already reads,
// with the same field, is left to it, so an explicit entry overrides a pattern for its name.
// A benchmark on one side only is listed in `changes`, or is an error with `missing: error`.
// Errors: the output cannot be read, or a pattern matches no benchmark on both sides.
util::Expected<MetricExpansion> expand_metric_patterns(std::span<const MetricSpec> metrics,
                                                       const std::string& baseline_output,
                                                       const std::string& candidate_output);

// The metrics of `metrics` as the history names them: each benchmark pattern replaced, by the rules
// of expand_metric_patterns, by one metric per benchmark of its key among the `recorded` metric
// names ("<key>/<benchmark>", as if both sides ran it); a pattern with no such record gives none.
// Errors as expand_metric_patterns (a name another metric has).
util::Expected<std::vector<MetricSpec>> expand_recorded_patterns(std::span<const MetricSpec> metrics,
                                                                 const std::vector<std::string>& recorded);

// Takes out of `expansion` the allocation metrics (allocations, allocated_bytes) of benchmarks
// that allocate nothing per iteration on both sides (`baseline`, `candidate`: the counts per
// iteration by benchmark, RunResult::simulated_benchmarks) and lists them in its changes as
// not countable: a count of 0 against 0 has no ratio, and is no change.
void set_aside_allocation_free(MetricExpansion& expansion,
                               const std::map<std::string, std::map<CountedEvent, double>>& baseline,
                               const std::map<std::string, std::map<CountedEvent, double>>& candidate);

// Takes out of `expansion` the metrics that count a benchmark which either side's suite could
// not count one benchmark at a time (`baseline` and `candidate`: RunResult::uncountable, by
// benchmark name), and lists them with the reason in its changes.
void set_aside_uncountable(MetricExpansion& expansion, const std::map<std::string, std::string>& baseline,
                           const std::map<std::string, std::string>& candidate);

}  // namespace perfduel
