#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "machine/facts.hpp"
#include "util/expected.hpp"
#include "util/name_table.hpp"

// Which CPUs the runs of a duel are pinned to. Both sides always share one set; the choice
// follows the design: the CPUs CTest allocated, else isolated CPUs, else allowed CPUs away
// from CPU 0 and one per core, sized to what the benchmark keeps busy.
namespace perfduel {

// Where the pinned set came from.
enum class PinningSource {
  none,       // `cpus: none`: not pinned
  requested,  // an explicit list (--cpus, `cpus:`)
  ctest,      // CTest's resource allocation (CTEST_RESOURCE_GROUP_*)
  isolated,   // auto: isolated CPUs in this process's affinity
  automatic,  // auto: allowed CPUs, CPU 0 and SMT siblings avoided
};

// The sources' words in the notes and the JSON report; automatic is "auto", as in `cpus: auto`.
constexpr util::NameTable<PinningSource, 5> k_pinning_source_names{{{PinningSource::none, "none"},
                                                                    {PinningSource::requested, "requested"},
                                                                    {PinningSource::ctest, "ctest"},
                                                                    {PinningSource::isolated, "isolated"},
                                                                    {PinningSource::automatic, "auto"}}};

// The CPUs used and why, for the notes and the JSON report.
struct Pinning {
  std::vector<int> cpus;  // empty: not pinned
  PinningSource source = PinningSource::none;
  std::string reason;        // one line, e.g. "CPU 1: chosen automatically (...)"
  double parallelism = 0.0;  // CPUs the warm-up runs kept busy ((user+sys)/wall); 0: not measured
};

// "none", "requested", "ctest", "isolated" or "auto" (k_pinning_source_names).
std::string to_string(PinningSource source);

// Reads an environment variable; none when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

// The CPU ids CTest allocated to this test from resource type `cpus`, read through `lookup`
// (CTEST_RESOURCE_GROUP_COUNT, CTEST_RESOURCE_GROUP_<i>, CTEST_RESOURCE_GROUP_<i>_CPUS with
// "id:<cpu>,slots:<n>;..." lists); none when CTest allocated no `cpus`. The error names the
// variable and what is wrong (an id that is not a CPU number).
util::Expected<std::optional<std::vector<int>>> ctest_allocated_cpus(const EnvironmentLookup& lookup);

// CPUs fit for benchmarking, best first: the isolated CPUs of this process's affinity if
// there are any, else all of it; one CPU per core (an SMT sibling of a listed CPU is left
// out); the core of CPU 0 last, or left out when `leave_out_cpu0` and there are others.
std::vector<int> benchmark_cpus(const MachineFacts& facts, bool leave_out_cpu0);

// `count` CPUs from `facts` for an automatic pinning: the first of benchmark_cpus, then,
// when there are too few cores, SMT siblings and CPU 0's core; the reason says which.
Pinning choose_cpus(const MachineFacts& facts, int count);

// The number of CPUs a run keeps busy: `parallelism` ((user+sys)/wall) rounded, with a
// quarter CPU of slack so that a single-threaded program with some kernel work stays at 1.
int cpus_needed(double parallelism);

// How a duel's CPUs are decided: the set for the warm-up rounds, and, for an automatic
// choice, a second choice from the parallelism the warm-up showed.
struct PinningPlan {
  Pinning warmup;  // where the warm-up runs go (the reason is for this set)
  bool resize_after_warmup = false;
};

// The plan for `mode` (with `requested` CPUs for CpuMode::list, named by `origin`), given
// the machine's `facts` and CTest's `allocated` CPUs. An automatic plan warms up on every
// candidate CPU so that a multi-threaded benchmark can show how many it uses.
PinningPlan plan_pinning(CpuMode mode, const std::vector<int>& requested, const std::string& origin,
                         const MachineFacts& facts, const std::optional<std::vector<int>>& allocated);

// The pinning of the measured rounds: `plan`'s warm-up set, or for an automatic plan the
// CPUs chosen for `parallelism` (0: the warm-up measured nothing).
// A suite whose benchmarks run up to `benchmark_threads` threads (by their names) gets at least
// that many CPUs, since its parallelism averages over the single-threaded ones. A duel that only
// counts, `counted_at_once` runs at a time (two: a suite's two processes, count/benchmark_counts.hpp,
// or else both sides at once), gets that many: a count does not depend on contention, so the
// CPU left to the system is not needed for it.
Pinning settle_pinning(const PinningPlan& plan, const MachineFacts& facts, double parallelism,
                       int benchmark_threads = 1, int counted_at_once = 0);

// Order duet's plan: the two CPUs of the pair, one per side, the same for the warm-up and the
// measured rounds. From an automatic plan the two best CPUs (choose_cpus); from a list or
// CTest's allocation two of them, on two cores when the set spans two (SMT siblings share a
// core's caches and execution units, so their runs would disturb each other), in the set's
// order otherwise; the reason says which. Fails, naming `origin` and the set, when it has
// fewer than two CPUs or pinning is off.
util::Expected<PinningPlan> plan_duet_pinning(const PinningPlan& plan, const MachineFacts& facts);

// A CTest resource spec file (JSON, version 1.0) with one `cpus` resource of one slot per
// CPU in `cpus`.
std::string resource_spec_json(const std::vector<int>& cpus);

}  // namespace perfduel
