#pragma once

#include <string>

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

}  // namespace perfduel::testing
