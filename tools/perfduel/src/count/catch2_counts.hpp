#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "count/benchmark_counts.hpp"
#include "count/callgrind_dump.hpp"
#include "run/catch2_results.hpp"
#include "run/executor.hpp"
#include "util/expected.hpp"

// Counting each BENCHMARK of a Catch2 test binary (v2 and v3), in the unmodified binary, from
// one run of it under callgrind. Catch2 times a benchmark in "stretches": each is one call of
// the benchmark's function object (BenchmarkFunction::model<...>::call), which reads the clock,
// calls the benchmark's body k times and reads the clock again. Before it samples, Catch2
// sizes its samples by running stretches of 1, 2, 4, ... calls until one lasts its warm-up
// time. Callgrind dumps its counts before and after each call of a model's `call`, and before
// the XML reporter's benchmarkPreparing, benchmarkStarting and benchmarkEnded, so each stretch's
// count is one dump. A stretch of k calls counts c + k·w: w the body's own work, c the
// stretch's (the clock reads, the loop's entry, the set-up in a BENCHMARK_ADVANCED's lambda
// before its meter.measure). The last two stretches of the sizing, of K and K/2 calls, give w
// exactly as their difference over K/2: c cancels, and so does the first calls' cold work
// (lazy allocations, first touches), done before them. The sampling's warm-up, the samples,
// analysis and reporting are outside the two. When the first call alone outlasts the warm-up
// (one stretch of sizing), the samples' stretches are divided by their calls instead, which
// leaves c/k in the count: counted only above k_least_window_instructions per stretch, as
// Google Benchmark's runs of a fixed iteration count are. (The chronometer's own start and
// finish would be the tighter marks, but GCC 14 inlines them into `call`; `call` itself is
// reached through a virtual call in both versions.)
namespace perfduel {

// What callgrind dumps around: a benchmark's function object (its model's call, before and
// after) and the XML reporter's benchmark events (benchmarkPreparing, -Starting, -Ended,
// -Failed, before). The reporter's, not RunContext's: a single-file Catch2 v2 build at -O2
// inlines RunContext's one-line forwards, never the reporter's work.
inline constexpr std::string_view k_catch2_stretch = "Catch::Benchmark::Detail::BenchmarkFunction::model";
inline constexpr std::string_view k_catch2_events = "Catch::XmlReporter::benchmark";

// The options the counted run sets, in place of the command's own (Catch2 rejects an option
// given twice): one sample and no bootstrap analysis (neither is part of a count; under
// callgrind Catch2's default 100 samples and 100,000 resamples took 29 s where one takes 6 s
// for the repository's 4 benchmarks), and a warm-up of 250 ms, which is what sizes the
// samples: the sizing doubles its calls until a stretch lasts the warm-up, so that a body of up
// to about 5 million instructions (250 ms under callgrind, idle) gets the two stretches its
// exact count needs, with room for a loaded machine's slower runs; a longer body is counted
// from its sample (k_least_window_instructions). Each benchmark costs about four warm-ups.
// Its warm-up, and the longer ones a run is counted again at when a benchmark's first call alone
// outlasted it and counted too few instructions to be divided by its calls (a loaded machine
// under callgrind): each four times the one before, so that one more call fits in the sizing.
inline constexpr int k_catch2_counting_warmup_ms = 250;
inline constexpr std::array<int, 2> k_catch2_longer_warmups_ms{1000, 4000};
inline constexpr std::array<std::string_view, 5> k_catch2_counting_arguments{
    "--benchmark-samples", "1", "--benchmark-warmup-time", "250", "--benchmark-no-analysis"};

// `arguments` (a command's, after its program) without the options of
// k_catch2_counting_arguments, each with its value ("--benchmark-samples 5" or
// "--benchmark-samples=5"), then those options.
// `warmup_ms` in place of the warm-up of k_catch2_counting_arguments (a retry's longer one).
std::vector<std::string> catch2_counting_arguments(std::span<const std::string> arguments,
                                                   int warmup_ms = k_catch2_counting_warmup_ms);

// The counts of `benchmarks` (the run's XML results, in order) from the dumps of that one run
// under callgrind, in the order callgrind wrote them; `cache`: whether the cache simulation
// ran (for estimated cycles). One count per benchmark, in the same order. Errors: the dumps
// hold another number of benchmarks than the XML (is the binary stripped of its symbols, or
// built without CATCH_CONFIG_ENABLE_BENCHMARKING?), a benchmark failed, or has no stretch.
util::Expected<std::vector<BenchmarkCount>> catch2_counts_from_dumps(
    std::span<const CallgrindDump> dumps, std::span<const Catch2Benchmark> benchmarks, CacheSimulation cache);

// `command` (a direct command of a Catch2 test binary with -r xml) under callgrind, with
// catch2_counting_arguments, its files in `counting.directory`.
CommandSpec catch2_counting_command(const CommandSpec& command, const SuiteCounting& counting);

// Counts each benchmark that `run`, a finished run of catch2_counting_command, reports in its
// XML. The result: `run` with RunResult::simulated_benchmarks (a benchmark reported several
// times, by several test cases or sections, counts their median) and RunResult::uncountable,
// stdout the run's XML. A run that failed is returned as it failed, with Valgrind's log tail;
// one that cannot be counted says why.
RunResult read_catch2_counts(RunResult run, const SuiteCounting& counting);

// Whether `run`, read by read_catch2_counts, left a benchmark uncountable because its first call
// alone outlasted the counting warm-up: counted again at a longer one, it may be countable.
bool needs_longer_catch2_warmup(const RunResult& run);

}  // namespace perfduel
