#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "run/callgrind_dump.hpp"
#include "run/executor.hpp"
#include "run/gbench_results.hpp"
#include "run/valgrind.hpp"
#include "util/expected.hpp"

// Counting a Google Benchmark suite one benchmark at a time, in the unmodified binary: each
// benchmark runs alone (--benchmark_filter=^name$) under Valgrind's callgrind, which dumps its
// counts before every call of State::StartKeepRunning and of State::FinishKeepRunning, the two
// calls around the framework's timed loop (before, not after, the start: a dump takes time,
// and the framework's timer starts inside StartKeepRunning, so that the first dump, of all of
// the start-up, stays out of the time the framework sizes its runs by). The dump before the
// last FinishKeepRunning holds exactly the loop of the benchmark's final run (after the
// framework's search for an iteration count), and that run's iteration count is in the JSON
// the program prints: their quotient is the count per iteration. The loop's entry and exit (a
// constant of about 250 instructions per run in Google Benchmark 1.7.1) is divided over the
// iterations, a share of 250 / (the window's total): 10⁻⁵ for a final run of 25 million
// instructions. LD_BIND_NOW=1 resolves the program's symbols at start, so that the first
// iteration does no lazy binding that the others skip.
namespace perfduel {

// The functions around Google Benchmark's timed loop, as callgrind names them (exported by
// libbenchmark 1.7 and later, shared or static, unless the binary is stripped).
inline constexpr std::string_view k_loop_start = "benchmark::State::StartKeepRunning";
inline constexpr std::string_view k_loop_finish = "benchmark::State::FinishKeepRunning";
// What a benchmark calls to leave work out of the framework's time; StartKeepRunning's own
// ResumeTiming is in every window, a PauseTiming only when the benchmark pauses.
inline constexpr std::string_view k_timer_pause = "benchmark::State::PauseTiming(";

// The fewest instructions a benchmark's final run may count: the loop's entry and exit, about
// 250, are then at most 10⁻⁴ of it, and so is their share's change when the framework picks
// another iteration count. Google Benchmark's default minimum time (0.5 s) makes runs of
// 50-300 million under callgrind; a --benchmark_min_time of 0.01 s made runs of one iteration.
inline constexpr double k_least_window_instructions = 2.5e6;

// A Google Benchmark filter that matches benchmark `name` alone: ^name$, with the characters
// of an extended regular expression escaped (BM_Sort/8 → ^BM_Sort/8$, BM_f<int> unchanged).
std::string exact_benchmark_filter(std::string_view name);

// The benchmark names of a --benchmark_list_tests=true run's `output`, one per line.
std::vector<std::string> listed_benchmarks(std::string_view output);

// One benchmark's counts: per iteration of its final run, or why it cannot be counted.
struct BenchmarkCount {
  std::map<CountedEvent, double> per_iteration;
  std::string uncountable;  // empty when counted
  double too_few = 0;       // the final run's instructions when too few to count (uncountable says so)
};

// `command` with its --benchmark_min_time (the last given, else Google Benchmark's 0.5 s)
// times `factor`, as a flag after the others, in the form given ("0.1" or "0.1s"); none when
// the command fixes an iteration count ("100x", Google Benchmark 1.8 and later).
std::optional<CommandSpec> with_longer_min_time(const CommandSpec& command, double factor);

// The count of benchmark `name` from its run alone under callgrind: `dumps` in the order
// callgrind wrote them, `results` its Google Benchmark JSON's; `cache`: whether the cache
// simulation ran (for estimated cycles). A benchmark that runs several threads is uncountable
// (their loops overlap in one count), so is one that pauses its timer inside the loop (the
// paused work would be counted), and so is one whose final run counted fewer than
// k_least_window_instructions. Errors: no timed loop in the dumps (a stripped binary?),
// the JSON lacks the benchmark.
util::Expected<BenchmarkCount> count_from_dumps(const std::string& name, std::span<const CallgrindDump> dumps,
                                                const GbenchResults& results, CacheSimulation cache);

// Where a suite is counted: the program, Valgrind, the simulation and a private directory.
struct SuiteCounting {
  std::filesystem::path program;
  std::filesystem::path valgrind;
  CacheSimulation cache = CacheSimulation::off;
  std::filesystem::path directory;
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
// at start.
CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps);

// callgrind_command running Google Benchmark `name` alone, its output as JSON on stdout.
CommandSpec callgrind_benchmark_command(const CommandSpec& command, const SuiteCounting& counting,
                                        const CallgrindFiles& files, const std::string& name);

// Counts every benchmark that `command` (a direct command of a Google Benchmark program)
// lists, each alone under callgrind through `executor`, two at a time (one on each of the
// first two CPUs of `limits`, if it has two). The result: RunResult::simulated_benchmarks and
// RunResult::uncountable, stdout one JSON document with the entries of every benchmark's run,
// wall time the whole suite's. A run that fails is returned as it failed, naming the benchmark.
RunResult count_google_benchmarks(Executor& executor, const CommandSpec& command,
                                  const SuiteCounting& counting, const RunLimits& limits);

}  // namespace perfduel
