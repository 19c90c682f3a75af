#pragma once

#include "count/callgrind_command.hpp"
#include "run/executor.hpp"

// Counting a Google Benchmark suite one benchmark at a time, in the unmodified binary: its
// benchmarks run in one process per CPU (--benchmark_filter=^(a|b|...)$, count/benchmark_filter.hpp)
// under Valgrind's callgrind (count/callgrind_command.hpp), each benchmark's count read from its
// runs' dumps and logged runs (count/benchmark_count.hpp).
namespace perfduel {

// Counts every benchmark that `command` (a direct command of a Google Benchmark program)
// lists under callgrind through `executor`, at k_counting_min_time unless the command fixes
// an iteration count: in two processes at once (one on each of the first two CPUs of
// `limits`, if it has two), the listed benchmarks alternating between them. A benchmark
// without a slope runs again alone at the minimum time it needs, twice at most. The result:
// RunResult::simulated_benchmarks and RunResult::uncountable, stdout one JSON document with
// the entries of every run, wall time the whole suite's by the executor's clock. A run that
// fails is returned as it failed, naming the benchmark it was running; one whose counts cannot
// be read, as failed_to_count (count/count_failure.hpp).
RunResult count_google_benchmarks(Executor& executor, const CommandSpec& command,
                                  const SuiteCounting& counting, const RunLimits& limits);

}  // namespace perfduel
