#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/profile.hpp"

namespace perfduel {

// How much of a run's stdout is kept, in MiB: metrics come from stdout, so all of a sane
// amount; beyond it the output is read (the program never blocks on it) and dropped.
constexpr std::size_t k_max_stdout_mib = 64;

// How a run ended.
enum class RunStatus {
  exited,           // normal exit; see exit_code
  signaled,         // killed by a signal; see signal
  timed_out,        // exceeded the per-run timeout; its process group was killed
  failed_to_start,  // could not be started; see error
  failed_to_count,  // ran to its end, but its counts (under Valgrind) could not be read; see error
  interrupted,      // perfduel itself got SIGINT/SIGTERM/SIGHUP; the child was killed
};

struct RunLimits {
  double timeout_seconds = 60;
  std::vector<int> cpus;  // empty: no pinning
  // Length of the PERFDUEL_PAD environment variable of this run; empty: no such variable.
  std::optional<std::size_t> env_padding_bytes;
  // Hardware counters to count over the run (perf_event_open), in RunResult::counters.
  std::vector<CountedEvent> counters;
};

// What one run of a command produced.
struct RunResult {
  RunStatus status = RunStatus::failed_to_start;
  int exit_code = -1;
  int signal = 0;
  double wall_seconds = 0;  // steady clock from just before spawn to reaping
  double user_seconds = 0;  // from wait4's rusage: this child and its waited-for descendants
  double system_seconds = 0;
  double max_rss_bytes = 0;  // the largest resident set of the child or one of its descendants
  // The program's code and data (util/elf_size.hpp), read from its file: set by the duel for
  // binary_size metrics, not by the executor.
  double program_bytes = 0;
  std::string out;             // all of stdout, up to k_max_stdout_mib
  bool out_truncated = false;  // stdout was longer than that; the rest was read and dropped
  std::string err;             // the end of stderr
  std::string error;           // why it failed to start, or its counts could not be read
  // Processes the run left running outside its process group (e.g. a daemon that called
  // setsid), found and killed after it ended.
  int left_behind = 0;

  // Hardware counts over the run, as RunLimits asked.
  std::map<CountedEvent, double> counters;
  // Valgrind's counts, for a run under Valgrind.
  std::map<CountedEvent, double> simulated;
  // The whole run's heap (allocations, allocated_bytes, peak_heap), for a run with the allocation
  // counter preloaded (count/heap_executor.hpp).
  std::map<CountedEvent, double> heap;
  // Valgrind's counts per iteration of each benchmark, for a suite counted one benchmark at a
  // time (count/benchmark_counts.hpp), and the benchmarks it could not count that way, with why.
  std::map<std::string, std::map<CountedEvent, double>> simulated_benchmarks;
  std::map<std::string, std::string> uncountable;
  // Where a run under Valgrind spent its instructions, function by function (run/profile.hpp):
  // per iteration of each benchmark counted one at a time, by its name; the whole process's
  // under the empty name.
  std::map<std::string, Profile> profiles;
};

// The seam between scheduling and process launching: the duel asks an Executor to run a
// command; tests substitute a scripted one to check ordering and stopping without timing.
class Executor {
 public:
  virtual ~Executor() = default;

  // Runs `command` once within `limits` and reports how it went; never throws for a
  // failure of the benchmark itself.
  virtual RunResult run(const CommandSpec& command, const RunLimits& limits) = 0;

  // Runs two commands at the same time (order: duet), `commands[i]` within `limits[i]`:
  // both are started and pinned before either is released, so they begin together. Results
  // in the same order. This default runs them one after the other, for executors that have no
  // processes to overlap (scripted ones in tests).
  virtual std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                                const std::array<RunLimits, 2>& limits) {
    return {run(*commands[0], limits[0]), run(*commands[1], limits[1])};
  }

  // The time now, in seconds from an arbitrary start: the clock the duel measures its budget and
  // its rate with. Real runs read the steady clock; a scripted executor returns its scripted
  // time (the wall time of the runs it made up), so that no test depends on the machine's speed.
  virtual double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

}  // namespace perfduel
