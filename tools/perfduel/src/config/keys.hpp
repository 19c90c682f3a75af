#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <yaml-cpp/yaml.h>

#include "config/config.hpp"

// The configuration keys, one row each (config/keys.cpp): the one place that says what a key
// is called, what it holds, its default, what a re-analysis may do with it and what it is for.
// The parser, the unknown-key check, the re-analysis overlay, settings_changes and
// config_to_json all go through these rows, and tests/lint checks templates/perfduel.yaml
// against them.
namespace perfduel::config {

class Reader;

// What a re-analysis (`perfduel analyze`) does with a key given with another value than the
// report's configuration has.
enum class Reanalysis {
  decides,        // applied: it only decides the verdict from the runs
  made_the_runs,  // an error naming the report's value: the runs were made with it
  budget,         // ignored, and returned by apply_reanalysis_settings: it only bounded the duel
  // Ignored: it acted when a benchmark pattern was expanded into metrics, and the report holds
  // the expanded metrics, not the pattern (a benchmark on one side only; `missing`).
  expansion,
};

// How the value of one key is read, compared, shown and written, for a key that is a setting
// of `Target` (Config or MetricSpec). Built by the kinds of config/value_kinds.hpp.
template <typename Target>
struct Value {
  // Reads `node`, the value of the key `key`, into `target`; fails through `reader`.
  void (*read)(const Value& self, const Reader& reader, const YAML::Node& node, const std::string& key,
               Target& target) = nullptr;
  // Whether `a` and `b` hold the same value.
  bool (*same)(const Target& a, const Target& b) = nullptr;
  // The value of `target` in words, as settings_changes and the error on a fixed key show it.
  std::string (*text)(const Value& self, const Target& target) = nullptr;
  // Writes the value of `target` as `json[key]`, or nothing when it has none to write. Null
  // when the key is written with another (`field` with its source).
  void (*write)(const Target& target, const std::string& key, nlohmann::ordered_json& json) = nullptr;
  // Sets the value of `to` to that of `from`.
  void (*copy)(const Target& from, Target& to) = nullptr;
  // A rule the value must follow beyond its range: the message when `target` breaks it.
  std::optional<std::string> (*check)(const Target& target) = nullptr;
  double min = 0;  // the range of a number, fraction or whole number
  double max = 0;
  std::string_view noun;  // follows a whole number in its text: "1 warm-up rounds"
};

// One configuration key. A structural key (the commands, `metrics`, a metric's source) has no
// Value: dedicated code reads, compares and writes it.
template <typename Target>
struct Key {
  std::string_view name;
  Reanalysis reanalysis = Reanalysis::decides;
  // As templates/perfduel.yaml writes it ("95%", "9m", "auto"); empty where there is no one
  // default (the seed is drawn, `zeros` goes by source) or the key is structural.
  std::string_view shown_default;
  std::string_view help;  // one line
  Value<Target> value{};

  bool structural() const { return value.read == nullptr; }
};

// The top-level keys. config_to_json writes those with a value in this order, after the
// commands and before the metrics.
std::span<const Key<Config>> top_level_keys();
// The keys of `baseline:` and `candidate:` (all structural).
std::span<const Key<CommandSpec>> command_keys();
// The keys of one metric's entry under `metrics:`.
std::span<const Key<MetricSpec>> metric_keys();

// The names of `keys`, for the unknown-key check and its suggestion.
template <typename Target>
std::vector<std::string> key_names(std::span<const Key<Target>> keys) {
  std::vector<std::string> names;
  for (const auto& key : keys) {
    names.emplace_back(key.name);
  }
  return names;
}

// Reads `node`, the value of `key`, into `target` and checks its rule (Value::check).
template <typename Target>
void read_key(const Key<Target>& key, const Reader& reader, const YAML::Node& node, Target& target);

// The value of `key` in `target` in words (Value::text).
template <typename Target>
std::string key_text(const Key<Target>& key, const Target& target) {
  return key.value.text(key.value, target);
}

}  // namespace perfduel::config
