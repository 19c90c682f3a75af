#include "duel/determinism.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace perfduel {

Determinism determinism_of(const MetricSpec& metric) {
  static constexpr std::array<std::string_view, 7> k_time_units{"s", "ms", "us", "µs", "ns", "min", "h"};
  static constexpr std::array<std::string_view, 4> k_gbench_time_fields{
      "real_time", "cpu_time", "bytes_per_second", "items_per_second"};
  const auto one_of = [](const auto& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  switch (metric.source) {
    case MetricSource::counter:
    case MetricSource::valgrind:
    case MetricSource::binary_size:
    case MetricSource::heap:
      return Determinism::counted;
    case MetricSource::wall_time:
    case MetricSource::user_time:
    case MetricSource::system_time:
    case MetricSource::catch2:
      return Determinism::never;
    case MetricSource::google_benchmark:
      return one_of(k_gbench_time_fields, metric.field) ? Determinism::never : Determinism::bit_identical;
    case MetricSource::regex:
    case MetricSource::json_pointer:
      return one_of(k_time_units, metric.unit) ? Determinism::never : Determinism::bit_identical;
    case MetricSource::max_rss:
      return Determinism::bit_identical;
  }
  return Determinism::never;
}

bool is_deterministic(std::span<const double> baseline, std::span<const double> candidate, double span) {
  const auto within = [&](std::span<const double> values) {
    if (values.size() < 2) {
      return false;
    }
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return *low > 0 && *high / *low - 1 <= span;
  };
  return within(baseline) && within(candidate);
}

bool is_deterministic(const MetricSpec& metric, std::span<const double> baseline,
                      std::span<const double> candidate) {
  switch (determinism_of(metric)) {
    case Determinism::counted:
      return is_deterministic(baseline, candidate, metric.threshold / 100);
    case Determinism::bit_identical:
      return is_deterministic(baseline, candidate, 0.0);
    case Determinism::never:
      return false;
  }
  return false;
}

}  // namespace perfduel
