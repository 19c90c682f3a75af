#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "run/executor.hpp"
#include "util/expected.hpp"

// Simulated counts: a run under Valgrind's cachegrind. Instructions executed (Ir) are the same
// on every run of a deterministic program, whatever else the machine does, which is what a
// noisy CI machine lacks; the price is a program 20–50× slower, so these runs are separate from
// the timed ones. Cachegrind writes its counts and its messages to private files, never to the
// program's stdout or stderr, so the program's output is parsed as in a plain run.
namespace perfduel {

struct SuiteCounting;  // count/benchmark_counts.hpp

// Whether cachegrind simulates the caches (needed for the cycles estimate; about twice as slow).
enum class CacheSimulation { off, on };

// How much slower a program runs under cachegrind at most, for its per-run timeout.
constexpr double k_valgrind_slowdown = 50;

// The event totals of one cachegrind output file, by event name (Ir, I1mr, D1mr, ...).
using CachegrindCounts = std::map<std::string, double>;

// Reads the "events:" and "summary:" lines of a cachegrind output file `text`. The error says
// which line is missing or malformed.
util::Expected<CachegrindCounts> parse_cachegrind_output(std::string_view text);

// Cycles estimated from cachegrind's counts with the cache simulation on: every instruction
// one cycle, every first-level miss (I1mr, D1mr, D1mw) 10 more, every last-level miss (ILmr,
// DLmr, DLmw) 100 more (a last-level miss is also a first-level one, so it costs 110). These
// are KCachegrind's default weights for its cycle estimate, the order of magnitude of an L2 hit
// and a DRAM access on current x86 cores. The figure is not a prediction of time; it makes a
// change in memory behaviour visible, which the instruction count alone does not show.
double estimated_cycles(const CachegrindCounts& counts);

// The value of `event` (instructions or cycles) from `counts`; the error names what is missing.
util::Expected<double> simulated_value(const CachegrindCounts& counts, CountedEvent event);

// The valgrind program on PATH; the error says how to install it.
util::Expected<std::filesystem::path> find_valgrind();

// The cache geometry of every simulation (--I1, --D1, --LL), the same on every machine.
std::vector<std::string> fixed_cache_arguments();

// `command` run under cachegrind: `valgrind` with `cache` simulation, output files in
// `output_directory` (one per process: with --trace-children=yes a shell wrapper or a program's
// own child processes are counted too, as rusage and inherited counters do), its log there as
// well. The cache geometry is fixed (32 KiB 8-way L1s, 8 MiB 16-way last level, 64-byte lines)
// rather than read from the host, so that estimated cycles compare across CI machines.
CommandSpec valgrind_command(const CommandSpec& command, const std::filesystem::path& program,
                             const std::filesystem::path& valgrind, CacheSimulation cache,
                             const std::filesystem::path& output_directory);

// Runs commands under cachegrind through another Executor and sums what every traced process
// counted: an Executor itself, so that the duel treats simulated runs like any other.
class ValgrindExecutor final : public Executor {
 public:
  // `inner` starts the processes and must outlive this; `valgrind`: the program
  // (find_valgrind); `cache`: simulate caches; `framework`: count the whole process (none) or
  // each benchmark of a suite alone (count/benchmark_counts.hpp). Creates a private directory
  // for Valgrind's files under the system's temporary directory.
  // `allocator`: the allocation counter preloaded into a suite's counted runs
  // (count/allocation_counts.hpp); empty: none.
  ValgrindExecutor(Executor& inner, std::filesystem::path valgrind, CacheSimulation cache,
                   BenchmarkFramework framework = BenchmarkFramework::none,
                   std::filesystem::path allocator = {});
  ~ValgrindExecutor() override;
  ValgrindExecutor(const ValgrindExecutor&) = delete;
  ValgrindExecutor& operator=(const ValgrindExecutor&) = delete;

  // Runs `command` once under cachegrind with `limits` (the timeout stretched by
  // k_valgrind_slowdown, no hardware counters). On success RunResult::simulated holds
  // instructions and, with the cache simulation, estimated cycles (per benchmark: in
  // RunResult::simulated_benchmarks, count_google_benchmarks); a failure to count sets
  // `error` and the status failed_to_start, with Valgrind's log tail in `err`.
  RunResult run(const CommandSpec& command, const RunLimits& limits) override;

  // Two runs at once, as `run` makes each, `commands[i]` within `limits[i]` (a count does not
  // depend on contention): through the inner executor's run_together for whole processes and
  // Catch2 binaries, one after the other for Google Benchmark suites (each already runs in
  // two processes at once, count/benchmark_counts.hpp).
  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override;

 private:
  // A run under Valgrind ready to start: its command and limits, and where its files go.
  struct Prepared {
    CommandSpec command;
    RunLimits limits;
    std::filesystem::path program;    // the program Valgrind runs
    std::filesystem::path directory;  // Valgrind's files
    int warmup_ms = 250;              // a Catch2 binary's counting warm-up
  };
  // `command` wrapped for Valgrind, its files in the private directory's subdirectory `slot`
  // (emptied); the error: the program cannot be found, or the command is a shell's where a
  // suite is counted.
  util::Expected<Prepared> prepare(const CommandSpec& command, const RunLimits& limits, int slot,
                                   int warmup_ms = 250);
  // A Catch2 binary's run `done` counted again at the longer warm-ups while one of its
  // benchmarks' first call outlasted the warm-up (needs_longer_catch2_warmup).
  RunResult with_longer_warmups(const CommandSpec& command, const RunLimits& limits, RunResult done);
  // The counts of a finished run of `prepared`: `result` with them, or as failed.
  RunResult finish(const Prepared& prepared, RunResult result) const;
  // Where `prepared` counts a suite (count/benchmark_counts.hpp).
  SuiteCounting counting_of(const Prepared& prepared) const;

  Executor& m_inner;
  std::filesystem::path m_valgrind;
  CacheSimulation m_cache;
  BenchmarkFramework m_framework;
  std::filesystem::path m_allocator;
  std::filesystem::path m_directory;
  std::map<std::string, std::filesystem::path> m_resolved;  // working directory + program → path
};

}  // namespace perfduel
