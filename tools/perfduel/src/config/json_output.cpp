#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/keys.hpp"

namespace perfduel {

namespace {

nlohmann::json command_to_json(const CommandSpec& command) {
  nlohmann::json json;
  json["command"] = command.argv;
  json["shell"] = command.launch == Launch::shell;
  if (!command.working_directory.empty()) {
    json["working_directory"] = command.working_directory.string();
  }
  if (!command.environment.empty()) {
    json["env"] = command.environment;
  }
  return json;
}

// The source keys of `metric`, as the configuration writes them (nothing for a built-in).
void write_source(const MetricSpec& metric, nlohmann::ordered_json& item) {
  switch (metric.source) {
    case MetricSource::regex:
      item["regex"] = metric.pattern;
      break;
    case MetricSource::json_pointer:
      item["json_pointer"] = metric.pattern;
      break;
    case MetricSource::google_benchmark:
      item["google_benchmark"] = metric.benchmark;
      item["field"] = metric.field;
      break;
    case MetricSource::catch2:
      item["catch2"] = metric.benchmark;
      break;
    case MetricSource::counter:
      item["counter"] = counted_event_name(metric.event);
      break;
    case MetricSource::valgrind:
      if (metric.framework == BenchmarkFramework::google_benchmark) {
        item["google_benchmark"] = metric.benchmark;
      } else if (metric.framework == BenchmarkFramework::catch2) {
        item["catch2"] = metric.benchmark;
      }
      item["valgrind"] = counted_event_name(metric.event);
      break;
    case MetricSource::heap:
      item["heap"] = counted_event_name(metric.event);
      break;
    default:
      break;
  }
}

// Writes the keys of `keys` that have a value and a writer, in the table's order.
template <typename Target>
void write_keys(std::span<const config::Key<Target>> keys, const Target& target,
                nlohmann::ordered_json& json) {
  for (const auto& key : keys) {
    if (key.value.write != nullptr) {
      key.value.write(target, std::string(key.name), json);
    }
  }
}

}  // namespace

std::string config_to_json(const Config& config) {
  nlohmann::ordered_json json;
  if (config.baseline) {
    json["baseline"] = command_to_json(*config.baseline);
  }
  if (config.candidate) {
    json["candidate"] = command_to_json(*config.candidate);
  }
  write_keys(config::top_level_keys(), config, json);
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const auto& metric : config.metrics) {
    nlohmann::ordered_json item;
    write_source(metric, item);
    write_keys(config::metric_keys(), metric, item);
    metrics[metric.name] = item;
  }
  json["metrics"] = metrics;
  return json.dump(2);
}

}  // namespace perfduel
