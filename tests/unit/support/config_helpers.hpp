#pragma once

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"

namespace perfduel::testing {

// The metric of `config` named `name`; fails the test when there is none.
inline const MetricSpec& metric(const Config& config, const std::string& name) {
  for (const auto& spec : config.metrics) {
    if (spec.name == name) {
      return spec;
    }
  }
  FAIL("no metric named " << name);
  throw;  // not reached: FAIL throws
}

// The configuration `text` parsed as the file gate.yaml (the name its errors give).
inline Config parse_gate(const std::string& text) {
  return parse_config(text, "gate.yaml");
}

// The names of `config`'s metrics, in order.
inline std::vector<std::string> metric_names(const Config& config) {
  std::vector<std::string> names;
  for (const auto& spec : config.metrics) {
    names.push_back(spec.name);
  }
  return names;
}

}  // namespace perfduel::testing
