#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "util/expected.hpp"

namespace perfduel {

// The names of the benchmarks in one run's stdout, in order and without duplicates, for a
// metric `source` that reads benchmarks by name: google_benchmark (its JSON; aggregates such
// as BM_x_mean are left out, as the extractor never picks them) or catch2 (its XML reporter).
// The error says what the output lacked, as the metric extractor would.
util::Expected<std::vector<std::string>> benchmark_names(MetricSource source, const std::string& output);

// The threads a Google Benchmark benchmark runs, from the `/threads:N` part Google Benchmark
// adds to the name of a benchmark registered with Threads(N) (BM_Queue/64/threads:4 → 4); 1
// for a name without it.
int benchmark_threads(std::string_view benchmark);

// The most threads any Google Benchmark metric of `metrics` runs (benchmark_threads of its
// benchmark); 1 when none runs more.
int most_benchmark_threads(std::span<const MetricSpec> metrics);

}  // namespace perfduel
