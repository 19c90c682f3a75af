#include "duel/profiling.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "count/benchmark_counts.hpp"
#include "count/valgrind.hpp"
#include "run/signals.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// Whose benchmarks a counted run of `metric` counts one by one; none: the whole process.
BenchmarkFramework framework_of(const MetricSpec& metric) {
  switch (metric.source) {
    case MetricSource::google_benchmark:
      return BenchmarkFramework::google_benchmark;
    case MetricSource::catch2:
      return BenchmarkFramework::catch2;
    default:
      return BenchmarkFramework::none;
  }
}

bool is_timed(const MetricSpec& metric) {
  switch (metric.source) {
    case MetricSource::wall_time:
    case MetricSource::user_time:
    case MetricSource::system_time:
    case MetricSource::catch2:
      return true;
    case MetricSource::google_benchmark:
      return metric.field == "real_time" || metric.field == "cpu_time";
    default:
      return false;
  }
}

// The relative change of `attribution`'s totals.
double counted_change(const Attribution& attribution) {
  return attribution.baseline_total > 0 ? attribution.candidate_total / attribution.baseline_total - 1 : 0.0;
}

// Whether a counted change `counted` explains a timed change `timed`: the same direction, at least
// `part` of it as log-ratios (k_least_explained_part).
bool explains(double counted, double timed, double part) {
  return counted * timed > 0 && std::abs(std::log1p(counted)) >= part * std::abs(std::log1p(timed));
}

// `command` restricted to the Google Benchmark benchmarks `names` (the last filter given wins).
CommandSpec filtered(CommandSpec command, const std::vector<std::string>& names) {
  command.argv.push_back("--benchmark_filter=" + exact_benchmark_filter(names));
  return command;
}

// One counted run of each side of `config` for `framework` (a suite's runs limited to `names`):
// the profiles by benchmark, or why not.
util::Expected<std::array<RunResult, 2>> profile_runs(const Config& config, Executor& executor,
                                                      const std::filesystem::path& valgrind,
                                                      BenchmarkFramework framework,
                                                      const std::vector<std::string>& names,
                                                      const std::vector<int>& cpus, double seconds_left) {
  ValgrindExecutor counting(executor, valgrind, CacheSimulation::on, framework);
  const bool suite = framework == BenchmarkFramework::google_benchmark;
  const CommandSpec baseline = suite ? filtered(*config.baseline, names) : *config.baseline;
  const CommandSpec candidate = suite ? filtered(*config.candidate, names) : *config.candidate;
  RunLimits limits;
  // Within what is left of the duel's budget (a suite's two sides one after the other), as the
  // counting stretches the timeout by k_valgrind_slowdown.
  limits.timeout_seconds = std::min(config.run_timeout, seconds_left / (suite ? 2 : 1) / k_valgrind_slowdown);
  std::array<RunLimits, 2> both{limits, limits};
  if (cpus.size() >= 2 && !suite) {
    both[0].cpus = {cpus[0]};  // at once, one CPU each: a count does not depend on contention
    both[1].cpus = {cpus[1]};
  } else {
    both[0].cpus = both[1].cpus = cpus;
  }
  auto results = counting.run_together({&baseline, &candidate}, both);
  for (std::size_t side = 0; side < 2; ++side) {
    const RunResult& run = results[side];
    if (run.status != RunStatus::exited || run.exit_code != 0 || !run.error.empty()) {
      const std::string why =
          !run.error.empty()                ? run.error
          : run.status == RunStatus::exited ? fmt::format("exit code {}", run.exit_code)
          : run.status == RunStatus::timed_out
              ? fmt::format("not done within the {:.0f} s left of the budget (max_seconds)", seconds_left)
              : "did not finish";
      return util::Expected<std::array<RunResult, 2>>::failure(
          fmt::format("the {} run: {}", side == 0 ? "baseline" : "candidate", why));
    }
  }
  return results;
}

}  // namespace

std::vector<const MetricResult*> timed_to_explain(Explain explain, const Analysis& analysis) {
  std::vector<const MetricResult*> chosen;
  for (const MetricResult& result : analysis.metrics) {
    if (!is_timed(result.spec) || explain == Explain::off) {
      continue;
    }
    const bool failed = result.spec.gating == Gating::gated && result.verdict == Verdict::regression;
    if (failed || (explain == Explain::always && worth_explaining(result))) {
      chosen.push_back(&result);
    }
  }
  return chosen;
}

Explanation explain_timed(const MetricResult& result, const Profile& baseline, const Profile& candidate) {
  Explanation explanation;
  explanation.metric = result.spec.name;
  explanation.benchmark = framework_of(result.spec) == BenchmarkFramework::none ? "" : result.spec.benchmark;
  explanation.basis = ProfileBasis::profiled;
  explanation.metric_change = result.change;
  explanation.attribution = attribute_change(baseline, candidate, CountedEvent::instructions);
  explanation.tree = differential_call_tree(baseline, candidate);
  explanation.instructions_change = counted_change(explanation.attribution);
  if (explains(explanation.instructions_change, result.change, k_least_explained_part)) {
    return explanation;
  }
  Attribution cycles = attribute_change(baseline, candidate, CountedEvent::cycles);
  explanation.cycles_change = counted_change(cycles);
  if (explains(explanation.cycles_change, result.change, k_least_explained_part_cycles)) {
    explanation.event = CountedEvent::cycles;
    explanation.attribution = std::move(cycles);
    return explanation;
  }
  // Neither count moved with the time: no function is to blame that a count can show.
  explanation.attribution.functions.clear();
  explanation.attribution.moves.clear();
  explanation.attribution.reading = ProfileReading::not_by_counts;
  return explanation;
}

namespace {

// Explains the timed change of `result` from the profiles of the counted `runs` of both sides into
// `outcome`: an explanation, or a note saying why there is none.
void explain_from_runs(const MetricResult& result, BenchmarkFramework framework,
                       const std::array<RunResult, 2>& runs, DuelOutcome& outcome) {
  const std::string key = framework == BenchmarkFramework::none ? "" : result.spec.benchmark;
  const auto baseline = runs[0].profiles.find(key);
  const auto candidate = runs[1].profiles.find(key);
  if (baseline == runs[0].profiles.end() || candidate == runs[1].profiles.end()) {
    std::string why = "its counted runs have no profile of it";
    for (const RunResult& run : runs) {
      if (const auto found = run.uncountable.find(key); found != run.uncountable.end()) {
        why = found->second;
      }
    }
    outcome.notes.push_back({NoteWeight::key, fmt::format("explain: {}: {}", result.spec.name, why)});
    return;
  }
  outcome.explanations.push_back(explain_timed(result, baseline->second, candidate->second));
}

}  // namespace

void explain_timed_changes(const Config& config, DuelOutcome& outcome, Executor& executor,
                           const std::filesystem::path& valgrind, const std::vector<int>& cpus) {
  if (outcome.end == DuelEnd::interrupted || !outcome.failure.empty() || !config.baseline ||
      !config.candidate) {
    return;
  }
  const auto chosen = timed_to_explain(config.explain, outcome.analysis);
  if (chosen.empty()) {
    return;
  }
  if (valgrind.empty()) {
    outcome.notes.push_back(
        {NoteWeight::key,
         "explain: valgrind is not on PATH, so the regression is not profiled by function "
         "(apt-get install valgrind; explain: off says nothing)"});
    return;
  }
  std::map<BenchmarkFramework, std::vector<const MetricResult*>> groups;
  for (const MetricResult* result : chosen) {
    groups[framework_of(result->spec)].push_back(result);
  }
  const double start = executor.now_seconds();
  for (const auto& [framework, results] : groups) {
    std::vector<std::string> names;
    for (const MetricResult* result : results) {
      names.push_back(result->spec.benchmark);
    }
    const double left = config.max_seconds - outcome.elapsed_seconds - (executor.now_seconds() - start);
    if (left < k_least_explain_seconds) {
      outcome.notes.push_back(
          {NoteWeight::key,
           fmt::format("explain: {:.0f} s of the budget (max_seconds) left, too little for the "
                       "counted runs that would say where",
                       std::max(left, 0.0))});
      break;
    }
    const auto runs = profile_runs(config, executor, valgrind, framework, names, cpus, left);
    if (interrupt_requested()) {
      return;
    }
    if (!runs) {
      outcome.notes.push_back(
          {NoteWeight::key,
           fmt::format("explain: the counted runs that would say where failed: {}", runs.error())});
      continue;
    }
    for (const MetricResult* result : results) {
      explain_from_runs(*result, framework, *runs, outcome);
    }
  }
  outcome.explain_seconds = executor.now_seconds() - start;
}

}  // namespace perfduel
