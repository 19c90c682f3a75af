#pragma once

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

// The events a run under Valgrind counts: instructions, and estimated cycles with the cache
// simulation `cache`.
std::vector<CountedEvent> simulated_events(CacheSimulation cache);

// The value of each of simulated_events(`cache`) from `counts`; the error names what is missing.
util::Expected<std::map<CountedEvent, double>> simulated_values(const CachegrindCounts& counts,
                                                                CacheSimulation cache);

// The valgrind program on PATH; the error says how to install it.
util::Expected<std::filesystem::path> find_valgrind();

// The cache geometry of every simulation (--I1, --D1, --LL), the same on every machine.
std::vector<std::string> fixed_cache_arguments();

// The files valgrind_command has cachegrind write in its output directory, each name followed by
// the process id: its counts, and its log.
inline constexpr std::string_view k_cachegrind_output_prefix = "cachegrind.out.";
inline constexpr std::string_view k_cachegrind_log_prefix = "valgrind.log.";

// `command` run under cachegrind: `valgrind` with `cache` simulation, output files in
// `output_directory` (one per process: with --trace-children=yes a shell wrapper or a program's
// own child processes are counted too, as rusage and inherited counters do), its log there as
// well. The cache geometry is fixed (32 KiB 8-way L1s, 8 MiB 16-way last level, 64-byte lines)
// rather than read from the host, so that estimated cycles compare across CI machines.
CommandSpec valgrind_command(const CommandSpec& command, const std::filesystem::path& program,
                             const std::filesystem::path& valgrind, CacheSimulation cache,
                             const std::filesystem::path& output_directory);

}  // namespace perfduel
