#pragma once

#include <optional>
#include <regex>
#include <span>
#include <vector>

#include "config/config.hpp"
#include "run/executor.hpp"
#include "util/expected.hpp"

namespace perfduel {

// Reads every configured metric from one finished run: the built-ins from the run's clock
// and rusage, the others from its stdout. Regexes are compiled once, at construction.
class MetricExtractor {
 public:
  // `metrics` must outlive the extractor.
  explicit MetricExtractor(std::span<const MetricSpec> metrics);

  // The values for `run`, one per metric in order. The error names the metric and says
  // what the output lacked, e.g. `metric "score": no match for regex "score: (\d+)"`.
  util::Expected<std::vector<double>> extract(const RunResult& run) const;

 private:
  std::span<const MetricSpec> m_metrics;
  std::vector<std::optional<std::regex>> m_regexes;
};

}  // namespace perfduel
