#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stats/direction.hpp"
#include "stats/estimator.hpp"
#include "util/name_table.hpp"

namespace perfduel {

using stats::Direction;
using stats::Estimator;

// Whether a metric can fail the gate or is only reported.
enum class Gating { gated, report_only };

// Where a metric's value comes from.
enum class MetricSource {
  wall_time,         // steady clock around the run, seconds
  user_time,         // rusage user CPU, seconds
  system_time,       // rusage system CPU, seconds
  max_rss,           // rusage peak resident set, bytes
  regex,             // first capture group of a regex over stdout
  json_pointer,      // a number at a JSON pointer in stdout
  google_benchmark,  // a field of one benchmark in Google Benchmark's JSON on stdout
  catch2,            // the mean of one BENCHMARK in a Catch2 test binary's XML report on stdout
  counter,           // a hardware performance counter (perf_event_open) over the plain run
  valgrind,          // counted by Valgrind in a separate, slower run (the process, or each benchmark)
  binary_size,       // the program's code and data, bytes, read from its file: no run needed
  // The whole program's heap, counted natively over the plain run by the preloaded allocation
  // counter (count/heap_report.hpp): allocations, allocated_bytes or peak_heap.
  heap,
};

// Whose benchmarks a valgrind metric counts one by one (MetricSpec::framework): none counts
// the whole process.
enum class BenchmarkFramework { none, google_benchmark, catch2 };

// What a counted metric (source counter or valgrind) counts.
enum class CountedEvent {
  instructions,   // retired instructions (valgrind: Ir, instructions executed)
  cycles,         // CPU cycles (valgrind: an estimate from simulated cache misses)
  branch_misses,  // mispredicted branches (counter only)
  cache_misses,   // last-level cache misses as the PMU defines them (counter only)
  // Heap allocations the program asked for (malloc, calloc, realloc, the aligned forms, and
  // operator new through them) and the bytes they asked for: per benchmark iteration by valgrind,
  // told to callgrind by an interposed allocator (src/alloc_counter.cpp), or for a whole run by
  // the same allocator counting natively (source heap).
  allocations,
  allocated_bytes,
  // The largest live heap of a whole run, in bytes (source heap only): the usable sizes of the
  // blocks held at once.
  peak_heap,
};

// Whether `event` counts the heap (allocations, allocated_bytes, peak_heap) rather than the
// CPU's work.
constexpr bool is_allocation_event(CountedEvent event) {
  return event == CountedEvent::allocations || event == CountedEvent::allocated_bytes ||
         event == CountedEvent::peak_heap;
}

// What a benchmark pattern does when a benchmark it matches runs on one side only.
enum class MissingBenchmark {
  report,  // compare the benchmarks both sides have; list the new and removed ones
  error,   // fail the duel (exit code 3): the suites must be the same
};

// How one run's readings of a suite's benchmark combine into the run's value: Google Benchmark's
// repetitions (--benchmark_repetitions), Catch2 test cases that run a benchmark of that name.
enum class Repetitions {
  median,  // one repetition's hiccup does not decide
  best,    // the fastest (a time's minimum, a rate's maximum): for noise that only slows a run
};

// In which order the two runs of a round are made.
enum class Order {
  random,      // a seeded coin per round
  abba,        // alternating blocks: AB, BA, AB, ...
  duet,        // both at once, on a pair of CPUs; which side gets which CPU balanced over rounds
  duet_fixed,  // both at once, the baseline always on the pair's first CPU (biased by the CPUs' difference)
};

// The orders' names in the configuration and on the command line (--order).
inline constexpr util::NameTable<Order, 4> k_order_names{{{Order::random, "random"},
                                                          {Order::abba, "abba"},
                                                          {Order::duet, "duet"},
                                                          {Order::duet_fixed, "duet-fixed"}}};

// Whether the two runs of a round run at the same time (duet) rather than one after the other.
constexpr bool is_duet(Order order) {
  return order == Order::duet || order == Order::duet_fixed;
}

// When to stop sampling.
enum class Stopping {
  hybrid,   // whichever comes first: the width rule, or a confidence sequence that settles the answer
  width,    // every gated interval narrower than its threshold (fixed-width rule)
  anytime,  // a confidence sequence decides, valid under continuous monitoring
};

// How the family of gated metrics is protected against multiple comparisons.
enum class Correction { bonferroni, holm };

// What an inconclusive verdict does to the exit status.
enum class InconclusivePolicy { skip, fail, pass };

// When a timed metric's change is profiled afterwards by one counted run of each side
// (duel/profiling.hpp): never, when a gated one regressed, or whenever one changed.
enum class Explain { off, failures, always };

// What a reading of 0 means for a metric whose change is a ratio.
enum class Zeros {
  allowed,  // a measurement at its resolution: the ratio of means is used (duel/zero_readings.cpp)
  error,    // a fault (a parser that read the wrong number): the duel fails, exit code 3
};

// How the command is started.
enum class Launch { direct, shell };

// What a duel does when the two sides would run identical programs: the same executable, the
// same shared libraries and the same files named by their arguments (duel/programs.hpp).
enum class IdenticalPrograms {
  skip,     // every metric is no change at once; nothing runs
  measure,  // the duel runs all the same: the programs read inputs their arguments do not name
};

struct MetricSpec {
  std::string name;
  MetricSource source = MetricSource::wall_time;
  std::string pattern;    // regex (source regex) or JSON pointer (source json_pointer)
  std::string benchmark;  // benchmark name or glob (`*`, `?`; sources google_benchmark, catch2)
  std::string field;      // real_time, cpu_time or a counter (google_benchmark); mean (catch2)
  CountedEvent event = CountedEvent::instructions;  // sources counter and valgrind
  // Source valgrind: count each benchmark's timed loop per iteration (count/benchmark_counts.hpp)
  // rather than the whole process; `benchmark` then names the benchmark or pattern.
  BenchmarkFramework framework = BenchmarkFramework::none;
  std::string unit;  // for display only
  Direction direction = Direction::lower_is_better;
  Gating gating = Gating::report_only;
  double threshold = 0.02;  // target full width of the relative-change interval
  // A change not shown to exceed ±tolerance is no change (Verdict::no_change); report-only
  // metrics default to threshold / 2.
  double tolerance = 0.0;
  Estimator estimator = Estimator::mean;
  MissingBenchmark missing = MissingBenchmark::report;  // a glob's benchmarks on one side only
  Repetitions repetitions = Repetitions::median;        // sources google_benchmark, catch2
  std::optional<Zeros> zeros;                           // `zeros:`; empty: by source (zeros_allowed)
  // The benchmark pattern whose one benchmark this metric stands for (its key, set by
  // duel/metric_expansion.hpp); empty for an entry of the configuration's own. Not written out.
  std::string expanded_from;
};

// Whether a reading of 0 is a measurement of `metric` rather than a fault: as configured with
// `zeros:`, else by source. Allowed for user and system CPU time (the kernel splits a run's CPU
// time between the two per scheduler tick, so a short run can read 0 in either) and for counted
// branch and cache misses (a short run may cause none). An error for wall time, max RSS,
// counted instructions and cycles (a run that ran cannot read 0) and for every value parsed from
// the program's output (a 0 there is what the program printed or the pattern captured).
bool zeros_allowed(const MetricSpec& metric);

// How `cpus:` / --cpus asked for pinning: chosen by perfduel (machine/pinning), off, or a list.
enum class CpuMode { automatic, none, list };

// Whether `metric` names a family of benchmarks by a glob, to be expanded into one metric per
// benchmark once the first runs have shown which there are (duel/metric_expansion.hpp).
bool is_benchmark_pattern(const MetricSpec& metric);

struct CommandSpec {
  std::vector<std::string> argv;  // argv[0] is the program; with Launch::shell, argv = {script}
  Launch launch = Launch::direct;
  std::filesystem::path working_directory;         // empty: the current directory
  std::map<std::string, std::string> environment;  // added to (or replacing) the inherited environment
};

struct Config {
  std::string origin = "<defaults>";  // file name or "<command line>", for messages
  std::optional<CommandSpec> baseline;
  std::optional<CommandSpec> candidate;
  std::vector<MetricSpec> metrics;  // built-in metrics first, then parsed ones

  double confidence = 0.95;
  int warmup = 1;              // rounds run and discarded before measuring
  bool detect_warmup = false;  // also drop an initial unstable phase found as a change point
  int min_rounds = 20;
  int max_rounds = 2000;
  double max_seconds = 540;  // whole measuring budget, seconds
  double run_timeout = 60;   // per run, seconds
  // Failed runs (crash, non-zero exit, timeout, unreadable metric) tolerated in one duel: the
  // round of each is discarded and played again. Beyond this the duel fails (exit code 3).
  int retries = 0;
  CpuMode cpu_mode = CpuMode::automatic;
  std::vector<int> cpus;  // CpuMode::list: the CPUs; otherwise the set the runs start on (empty: unpinned)
  Order order = Order::random;
  // Each run gets PERFDUEL_PAD=<0..4095 x> in its environment, a seeded random length per
  // run: the environment's size shifts the initial stack (and with it alignment) and would
  // otherwise bias whichever side happens to get the luckier layout.
  bool env_padding = true;
  IdenticalPrograms identical_programs = IdenticalPrograms::skip;
  std::optional<std::uint64_t> seed;  // empty: drawn at start and reported
  Stopping stopping = Stopping::hybrid;
  Correction correction = Correction::bonferroni;
  // No change shown at the uncorrected level (duel/settling.cpp, settle_by_equivalence). Not a
  // configuration key: perfduel_validate turns it off to measure what it brings.
  bool uncorrected_pass = true;
  InconclusivePolicy on_inconclusive = InconclusivePolicy::skip;
  Explain explain = Explain::failures;

  // Estimator settings (see stats/estimate.hpp).
  double autocorrelation_limit = 0.1;  // |lag-1 r| above this triggers batching
  int min_batches = 20;
  int min_best_of = 3;            // `min` estimator: best k runs per batch
  double stability_limit = 0.02;  // `min` estimator: allowed gap between halves

  // Metrics that can fail the gate.
  std::vector<const MetricSpec*> gated_metrics() const;
};

// The most `retries` a configuration may ask for.
constexpr int k_max_retries = 10;

// Loads `path`, validates it and fills in defaults. Throws perfduel::Error with
// "<path>:<line>: <message>" on any problem.
Config load_config(const std::filesystem::path& path);

// Same as load_config for YAML (or JSON) `text`; `origin` names it in messages.
Config parse_config(const std::string& text, const std::string& origin);

// What a re-analysis (`perfduel analyze`) may change is each key's Reanalysis in the table of
// keys (config/keys.cpp): the settings that decide are applied, what made the runs (the
// commands, the metrics and their sources, warmup, order, seed, ...) cannot change after the
// fact, and the budgets (max_rounds, max_seconds, timeout, retries) only bounded the duel.

// Lays the settings of the YAML `text` (a whole configuration file or some of its keys) over
// `config`, the configuration of a saved report; `origin` names the text in messages. A metric
// key names a metric of the report, or a benchmark pattern for the metrics it was expanded to.
// Returns the budget keys given with another value than the report's (ignored). Throws
// perfduel::Error naming the line and key when the text changes what made the runs or names a
// metric the report does not have, and as parse_config does on a bad value.
std::vector<std::string> apply_reanalysis_settings(Config& config, const std::string& text,
                                                   const std::string& origin);

// One setting of a re-analysis from the command line: `key` a metric key (threshold,
// tolerance, estimator, ...) set on the metric `metric`, or on every metric when `metric` is
// empty, or a top-level key (confidence, stopping, ...); `value` as written in YAML; `origin`
// (the option) names it in messages. Throws perfduel::Error as apply_reanalysis_settings does.
void apply_reanalysis_setting(Config& config, const std::string& key, const std::string& metric,
                              const std::string& value, const std::string& origin);

// The settings a re-analysis may change in which `after` differs from `before`, in words:
// "confidence 99 % (was 95 %)", "wall_time: threshold 5 % (was 2 %)" (one line for all
// metrics with the same change; more than three are counted, "20 metrics: ...").
std::vector<std::string> settings_changes(const Config& before, const Config& after);

// The configuration with defaults only: wall time gated at 2 %, user and system CPU time
// and max RSS reported (report-only metrics: changes within ±1 %, half their threshold,
// count as no change unless their entry sets a tolerance).
Config default_config();

// The name of `event` as written in the configuration: "instructions", "cycles",
// "branch-misses", "cache-misses".
const char* counted_event_name(CountedEvent event);

// The effective configuration as JSON text that parse_config reads back to the same Config.
std::string config_to_json(const Config& config);

}  // namespace perfduel
