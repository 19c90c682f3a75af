#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "config/config.hpp"
#include "count/valgrind.hpp"

// The commands that count a suite's benchmarks one at a time under callgrind, in the unmodified
// binary: callgrind's options around the program's own, and the options a Google Benchmark
// program is given for it. LD_BIND_NOW=1 resolves the program's symbols at start, so that the
// first iteration does no lazy binding.
namespace perfduel {

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

// `command` (direct, its program resolved to `counting.program`) under callgrind with
// `counting.cache` simulation, with `dumps` (callgrind's --dump-before=PATTERN and
// --dump-after=PATTERN options; of two patterns that agree up to their first `*`, callgrind
// keeps one, so no two may), its files `files`. LD_BIND_NOW=1 resolves the program's symbols
// at start; a `counting.allocator` is preloaded (LD_PRELOAD, after the command's own).
CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps);

// callgrind_command running the Google Benchmark benchmarks `names`, one repetition each, its
// runs logged (--v=2) and its output as JSON on stdout, dumping around each run of a timed loop
// (count/benchmark_count.hpp).
CommandSpec callgrind_benchmark_command(const CommandSpec& command, const SuiteCounting& counting,
                                        const CallgrindFiles& files, std::span<const std::string> names);

// `command` with --benchmark_min_time=`seconds` as a flag after the others, in the form the
// command gives it ("0.1" or "0.1s"; plain without one); none when the command fixes an
// iteration count ("100x", Google Benchmark 1.8 and later).
std::optional<CommandSpec> with_min_time(const CommandSpec& command, double seconds);

}  // namespace perfduel
