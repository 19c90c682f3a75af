#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "util/expected.hpp"

namespace perfduel {

// The names of the benchmarks in one run's stdout, in order and without duplicates, for a
// metric `source` that reads benchmarks by name: google_benchmark (its JSON; aggregates such
// as BM_x_mean are left out, as the extractor never picks them) or catch2 (its XML reporter).
// The error says what the output lacked, as the metric extractor would.
util::Expected<std::vector<std::string>> benchmark_names(MetricSource source, const std::string& output);

}  // namespace perfduel
