#pragma once

#include <filesystem>
#include <vector>

#include "config/config.hpp"
#include "count/valgrind.hpp"

namespace perfduel {

// Which runs a round makes of each side, from the configured metrics. A plain run gives the
// times, rusage, output metrics and hardware counters (counting costs the run nothing); a run
// under Valgrind gives the simulated counts. With both, a round makes the plain runs of both
// sides first, back to back so that drift cancels in their ratio, then the Valgrind runs in
// the same order (their counts do not drift).
struct RunPlan {
  bool plain = true;                             // metrics other than valgrind and binary_size ones exist
  bool valgrind = false;                         // some metric is a valgrind one
  CacheSimulation cache = CacheSimulation::off;  // on when estimated cycles are asked for
  // Whose benchmarks the Valgrind runs count one by one; none: the whole process.
  BenchmarkFramework framework = BenchmarkFramework::none;
  std::vector<CountedEvent> counters;  // hardware events for the plain run, each once
  bool allocations = false;            // a valgrind metric counts allocations (preloads the counter)
  bool heap = false;                   // a heap metric: the plain runs preload the counter, natively
};

// The runs `config`'s metrics need.
RunPlan plan_runs(const Config& config);

// Checks before any run that this machine can make the runs of `plan`: the hardware counters
// open (probe_counters) and valgrind is on PATH, and the Valgrind metrics all count either
// whole processes or each benchmark. Throws perfduel::Error (usage) naming the
// configuration and the metric, e.g. `gate.yaml: metric "insns": hardware counter
// "instructions" is not available here: perf_event_open: No such file or directory (no PMU in
// this VM?); use valgrind: instructions instead`. Returns the valgrind program (empty when
// the plan has no Valgrind runs).
std::filesystem::path check_run_plan(const Config& config, const RunPlan& plan);

// The allocation counter the Valgrind runs of `plan` preload (count/allocation_counts.hpp), and
// its plain runs for heap metrics (count/heap_report.hpp), found beside the driver; empty when no
// metric counts allocations. Throws perfduel::Error naming the
// configuration, the metric and the places looked at when it is missing.
std::filesystem::path find_allocation_counter(const Config& config, const RunPlan& plan);

}  // namespace perfduel
