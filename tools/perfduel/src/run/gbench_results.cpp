#include "run/gbench_results.hpp"

#include <optional>
#include <type_traits>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

// Reads the field `key` of `entry` into `target` when it is there: the error when it is there
// with another type than `target`'s.
template <typename T>
std::optional<std::string> read_field(const nlohmann::json& entry, const char* key, T& target) {
  const auto it = entry.find(key);
  if (it == entry.end()) {
    return std::nullopt;
  }
  const bool fits = std::is_same_v<T, bool> ? it->is_boolean() : it->is_string();
  if (!fits) {
    return fmt::format("\"{}\" is {}, not a {}", key, util::shorten(it->dump(), 40),
                       std::is_same_v<T, bool> ? "boolean" : "string");
  }
  target = it->get<T>();
  return std::nullopt;
}

// The entry `json`, or what is wrong with it.
std::optional<std::string> read_entry(const nlohmann::json& json, GbenchEntry& entry) {
  if (!json.is_object()) {
    return fmt::format("{} is not an object", util::shorten(json.dump(), 40));
  }
  for (auto problem : {read_field(json, "name", entry.name), read_field(json, "run_type", entry.run_type),
                       read_field(json, "error_occurred", entry.error_occurred),
                       read_field(json, "error_message", entry.error_message),
                       read_field(json, "time_unit", entry.time_unit)}) {
    if (problem) {
      return problem;
    }
  }
  for (const auto& [key, value] : json.items()) {
    if (value.is_number()) {
      entry.numbers.emplace(key, value.get<double>());
    }
  }
  entry.json = json;
  return std::nullopt;
}

}  // namespace

std::optional<double> GbenchEntry::seconds_per_time_unit() const {
  if (time_unit == "ns") {
    return 1e-9;
  }
  if (time_unit == "us") {
    return 1e-6;
  }
  if (time_unit == "ms") {
    return 1e-3;
  }
  if (time_unit == "s") {
    return 1.0;
  }
  return std::nullopt;
}

GbenchReading read_gbench_document(const nlohmann::json& document) {
  GbenchReading reading;
  if (document.is_discarded()) {
    reading.fault = GbenchFault::not_json;
    reading.error = "the output is not JSON";
    return reading;
  }
  if (!document.is_object() || !document.contains("benchmarks") || !document["benchmarks"].is_array()) {
    reading.fault = GbenchFault::no_benchmarks;
    reading.error =
        "the output is JSON but not Google Benchmark's (no \"benchmarks\" array); pass "
        "--benchmark_format=json";
    return reading;
  }
  const auto& benchmarks = document["benchmarks"];
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    GbenchEntry entry;
    if (const auto problem = read_entry(benchmarks[i], entry)) {
      reading.fault = GbenchFault::malformed;
      reading.error =
          fmt::format("the output is not Google Benchmark's JSON: benchmarks[{}]: {}", i, *problem);
      reading.results = {};
      return reading;
    }
    reading.results.entries.push_back(std::move(entry));
  }
  if (const auto context = document.find("context"); context != document.end()) {
    reading.results.context = *context;
  }
  return reading;
}

GbenchReading read_gbench_results(std::string_view output) {
  return read_gbench_document(nlohmann::json::parse(output, nullptr, false));
}

}  // namespace perfduel
