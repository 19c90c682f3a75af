#pragma once

// The parts of reading a configuration that a re-analysis (config/reanalysis.cpp) reads with too.

#include <string>

#include <yaml-cpp/yaml.h>

#include "config/config.hpp"
#include "config/yaml_reader.hpp"

namespace perfduel::config {

// The default tolerance of a metric that is not counted, as a share of its threshold (see
// apply_default_tolerance in config/parse.cpp).
inline constexpr double k_default_tolerance_share = 0.5;

// The command `node` of `side` ("baseline", "candidate"): a string, a list or a mapping.
CommandSpec read_command(const Reader& reader, const YAML::Node& node, const std::string& side);

// Where the metric's value comes from: its source key (regex, json_pointer, google_benchmark,
// catch2, counter, valgrind) and the metric keys that are not decisions (field, missing), from
// `node`, a metric's entry, into `metric`. Returns how many source keys `node` has.
int read_source(const Reader& reader, const YAML::Node& node, MetricSpec& metric);

// The metric keys that decide (threshold, tolerance, gate, ...) from `node` into `metric`, and
// the defaults of its source for those `node` does not set.
void read_metric_settings(const Reader& reader, const YAML::Node& node, MetricSpec& metric);

// The top-level keys that have a value (all but the commands and `metrics`) from `root` into
// `config`.
void read_settings(const Reader& reader, const YAML::Node& root, Config& config);

}  // namespace perfduel::config
