#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "count/callgrind_dump.hpp"
#include "count/valgrind.hpp"
#include "run/executor.hpp"
#include "run/gbench_results.hpp"
#include "util/expected.hpp"

// Counting a Google Benchmark suite one benchmark at a time, in the unmodified binary. The
// suite's benchmarks run in one process per CPU (--benchmark_filter=^(a|b|...)$) under
// Valgrind's callgrind, which dumps its counts before every call of State::StartKeepRunning and
// of State::FinishKeepRunning, the two calls around the framework's timed loop (before, not
// after, the start: a dump takes time, and the framework's timer starts inside
// StartKeepRunning). The dump before a FinishKeepRunning holds exactly one run of the loop.
// At --v=2 the framework logs each run's benchmark and iteration count ("Running BM_x for
// 100") and its time, so every window has its benchmark and its iterations.
//
// The iteration count is fixed, not divided out. The framework sizes its runs by time: it runs
// 1, 10, 100, ... iterations while each run takes under a tenth of the minimum time, then a
// count predicted from the time. Those first runs are the same in every process, however fast
// it runs; the count is the slope between the first two of them, 10^(j-1) and 10^j
// iterations, whose larger counts at least k_least_slope_instructions: what each run does
// once (the loop's entry and exit, a first iteration's cold work) cancels, and an iteration
// whose work grows with the iteration count (a message numbered by it) is counted over the
// same iterations on both sides. A benchmark whose first run, of one iteration, already counts
// that many is counted by that iteration. LD_BIND_NOW=1 resolves the program's symbols at
// start, so that the first iteration does no lazy binding.
namespace perfduel {

// The functions around Google Benchmark's timed loop, as callgrind names them (exported by
// libbenchmark 1.7 and later, shared or static, unless the binary is stripped).
inline constexpr std::string_view k_loop_start = "benchmark::State::StartKeepRunning";
inline constexpr std::string_view k_loop_finish = "benchmark::State::FinishKeepRunning";
// What a benchmark calls to leave work out of the framework's time; StartKeepRunning's own
// ResumeTiming is in every window, a PauseTiming only when the benchmark pauses.
inline constexpr std::string_view k_timer_pause = "benchmark::State::PauseTiming(";

// The fewest instructions the run a count is taken from may count. For a Catch2 stretch
// divided by its calls, and a Google Benchmark run of a fixed iteration count ("100x"), whose
// entry and exit (about 250 instructions) are divided over the iterations: 10⁻⁴ of it at most.
inline constexpr double k_least_window_instructions = 2.5e6;

// The fewest instructions the larger of the two runs a Google Benchmark slope is taken from
// may count (what a run does once cancels in a slope; this keeps the window long enough that
// the iterations' own work dominates it), and the minimum time a suite is counted at: the run
// before that one counts under a million instructions, 10-20 ms under callgrind, so it stays
// under a tenth of 0.2 s. Counts do not depend on the minimum time; the cost does.
inline constexpr double k_least_slope_instructions = 1e6;
inline constexpr double k_counting_min_time = 0.2;
// The most iterations Google Benchmark runs a benchmark for (its kMaxIterations): a loop the
// compiler emptied reaches it in runs that all count next to nothing.
inline constexpr double k_most_iterations = 1e9;

// A Google Benchmark filter that matches the benchmarks `names` and no other: ^name$ for one,
// ^(a|b)$ for several, with the characters of an extended regular expression escaped
// (BM_Sort/8 → ^BM_Sort/8$, BM_f<int> unchanged).
std::string exact_benchmark_filter(std::span<const std::string> names);

// The benchmark names of a --benchmark_list_tests=true run's `output`, one per line.
std::vector<std::string> listed_benchmarks(std::string_view output);

// One run of a benchmark's timed loop, as Google Benchmark logs it at --v=2 ("-- LOG(2):
// Running BM_x for 100", then "-- LOG(2): Ran in 0.0012/0.0013", CPU and real seconds).
struct LoggedRun {
  std::string name;
  double iterations = 0;
  double seconds = 0;  // the larger of the two times; 0 when not logged
};

// The runs logged in `err` (a process's stderr), in order; other lines are skipped.
std::vector<LoggedRun> logged_runs(std::string_view err);

// One run of a benchmark under callgrind: as logged, and its window (the dump closing its
// loop), none when several threads ran the loop at once.
struct CountedRun {
  LoggedRun logged;
  std::optional<CallgrindDump> window;
  int threads = 1;
};

// The runs of one process by benchmark name, each benchmark's in order: `dumps` in the order
// callgrind wrote them, `logged` the process's logged runs, `threads` the number of threads
// each benchmark runs (1 when not named). A run of n threads has n openings and n closings.
// The error says that the dumps and the log do not agree.
util::Expected<std::map<std::string, std::vector<CountedRun>>> split_runs(
    std::span<const CallgrindDump> dumps, std::span<const LoggedRun> logged,
    const std::map<std::string, int>& threads);

// One benchmark's counts per iteration, why it cannot be counted, or the minimum time that
// would count it.
struct BenchmarkCount {
  std::map<CountedEvent, double> per_iteration;
  std::string uncountable;    // empty when counted
  double needs_min_time = 0;  // > 0: not counted; a run at this --benchmark_min_time would be
  Profile profile;            // where the instructions per iteration went, when counted
};

// The count of benchmark `name` from its `runs` (split_runs); `fixed_count`: whether the
// command fixes the iteration count ("100x"), so that the last run is divided by its
// iterations; `cache`: whether the cache simulation ran (for estimated cycles). A benchmark
// that runs several threads is uncountable (their loops overlap in one count), so is one that
// pauses its timer inside the loop (the paused work would be counted). Without a slope (see
// above), needs_min_time is set from the logged times, or, for a fixed count under
// k_least_window_instructions, the benchmark is uncountable. The error: no run at all.
util::Expected<BenchmarkCount> count_from_runs(const std::string& name, std::span<const CountedRun> runs,
                                               bool fixed_count, CacheSimulation cache);

// `command` with --benchmark_min_time=`seconds` as a flag after the others, in the form the
// command gives it ("0.1" or "0.1s"; plain without one); none when the command fixes an
// iteration count ("100x", Google Benchmark 1.8 and later).
std::optional<CommandSpec> with_min_time(const CommandSpec& command, double seconds);

// Where a suite is counted: the program, Valgrind, the simulation and a private directory.
struct SuiteCounting {
  std::filesystem::path program;
  std::filesystem::path valgrind;
  CacheSimulation cache = CacheSimulation::off;
  std::filesystem::path directory;
  int warmup_ms = 250;  // a Catch2 binary's counting warm-up (count/catch2_counts.hpp)
  // The allocator preloaded to count allocations (count/allocation_counts.hpp); empty: none.
  std::filesystem::path allocator;
};

// Where one callgrind process writes: its dumps, numbered (output_base.1, .2, ...), and its log.
struct CallgrindFiles {
  std::filesystem::path output_base;
  std::filesystem::path log_file;
};

// The dumps callgrind wrote for one process, base file `base`: base.1, base.2, ... in order.
util::Expected<std::vector<CallgrindDump>> read_callgrind_dumps(const std::filesystem::path& base);

// `command` (direct, its program resolved to `counting.program`) under callgrind with
// `counting.cache` simulation, with `dumps` (callgrind's --dump-before=PATTERN and
// --dump-after=PATTERN options; of two patterns that agree up to their first `*`, callgrind
// keeps one, so no two may), its files `files`. LD_BIND_NOW=1 resolves the program's symbols
// at start; a `counting.allocator` is preloaded (LD_PRELOAD, after the command's own).
CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps);

// callgrind_command running the Google Benchmark benchmarks `names`, one repetition each, its
// runs logged (--v=2) and its output as JSON on stdout.
CommandSpec callgrind_benchmark_command(const CommandSpec& command, const SuiteCounting& counting,
                                        const CallgrindFiles& files, std::span<const std::string> names);

// Counts every benchmark that `command` (a direct command of a Google Benchmark program)
// lists under callgrind through `executor`, at k_counting_min_time unless the command fixes
// an iteration count: in two processes at once (one on each of the first two CPUs of
// `limits`, if it has two), the listed benchmarks alternating between them. A benchmark
// without a slope runs again alone at the minimum time it needs, twice at most. The result:
// RunResult::simulated_benchmarks and RunResult::uncountable, stdout one JSON document with
// the entries of every run, wall time the whole suite's. A run that fails is returned as it
// failed, naming the benchmark it was running.
RunResult count_google_benchmarks(Executor& executor, const CommandSpec& command,
                                  const SuiteCounting& counting, const RunLimits& limits);

}  // namespace perfduel
