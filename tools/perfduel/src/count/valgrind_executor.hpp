#pragma once

#include <array>
#include <filesystem>

#include "config/config.hpp"
#include "count/valgrind.hpp"
#include "run/executor.hpp"
#include "run/program_path.hpp"
#include "util/expected.hpp"
#include "util/file.hpp"

// The Executor of the runs under Valgrind: each run's command wrapped for cachegrind (a whole
// process) or callgrind (each benchmark of a suite alone), its counts read when it ends.
namespace perfduel {

struct SuiteCounting;  // count/callgrind_command.hpp

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

  // Runs `command` once under cachegrind with `limits` (the timeout stretched by
  // k_valgrind_slowdown, no hardware counters). On success RunResult::simulated holds
  // instructions and, with the cache simulation, estimated cycles (per benchmark: in
  // RunResult::simulated_benchmarks, count_google_benchmarks); a run whose counts cannot be read
  // has the status failed_to_count (count/count_failure.hpp).
  RunResult run(const CommandSpec& command, const RunLimits& limits) override;

  // Two runs at once, as `run` makes each, `commands[i]` within `limits[i]` (a count does not
  // depend on contention): through the inner executor's run_together for whole processes and
  // Catch2 binaries, one after the other for Google Benchmark suites (each already runs in
  // two processes at once, count/benchmark_counts.hpp).
  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override;

  // The inner executor's clock, which its runs are timed by (scripted in tests).
  double now_seconds() override { return m_inner.now_seconds(); }

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
  util::PrivateDirectory m_directory;
  ProgramPaths m_programs;  // each command's program, as a plain run finds it
};

}  // namespace perfduel
