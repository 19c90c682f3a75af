#include "run/benchmark_names.hpp"

#include <algorithm>
#include <charconv>

#include "run/catch2_results.hpp"
#include "run/gbench_results.hpp"

namespace perfduel {

namespace {

using Names = util::Expected<std::vector<std::string>>;

void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    names.push_back(name);
  }
}

Names google_benchmark_names(const std::string& output) {
  const GbenchReading reading = read_gbench_results(output);
  if (reading.fault == GbenchFault::not_json || reading.fault == GbenchFault::no_benchmarks) {
    return Names::failure(
        "the output is not Google Benchmark's JSON (no \"benchmarks\" array); pass --benchmark_format=json");
  }
  if (reading.fault != GbenchFault::none) {
    return Names::failure(reading.error);
  }
  std::vector<std::string> names;
  for (const GbenchEntry& entry : reading.results.entries) {
    if (!entry.is_aggregate()) {
      add_once(names, entry.name);
    }
  }
  return names;
}

}  // namespace

util::Expected<std::vector<std::string>> benchmark_names(MetricSource source, const std::string& output) {
  if (source == MetricSource::google_benchmark) {
    return google_benchmark_names(output);
  }
  if (source != MetricSource::catch2) {
    return Names::failure("this metric source has no named benchmarks");
  }
  auto benchmarks = read_catch2_benchmarks(output);
  if (!benchmarks) {
    return Names::failure(benchmarks.error());
  }
  std::vector<std::string> names;
  for (const auto& benchmark : *benchmarks) {
    add_once(names, benchmark.name);
  }
  return names;
}

int benchmark_threads(std::string_view benchmark) {
  constexpr std::string_view k_marker = "/threads:";
  const auto at = benchmark.rfind(k_marker);
  if (at == std::string_view::npos) {
    return 1;
  }
  int threads = 0;
  const auto digits = benchmark.substr(at + k_marker.size());
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), threads);
  const bool whole_part = end == digits.data() + digits.size() || *end == '/';
  return error == std::errc() && whole_part && threads > 1 ? threads : 1;
}

int most_benchmark_threads(std::span<const MetricSpec> metrics) {
  int most = 1;
  for (const auto& metric : metrics) {
    if (metric.source == MetricSource::google_benchmark) {
      most = std::max(most, benchmark_threads(metric.benchmark));
    }
  }
  return most;
}

}  // namespace perfduel
