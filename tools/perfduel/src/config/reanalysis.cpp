#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "config/config.hpp"
#include "config/keys.hpp"
#include "config/names.hpp"
#include "config/parse.hpp"
#include "config/yaml_reader.hpp"
#include "util/glob.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

// A re-analysis (`perfduel analyze`) lays new settings over a report's configuration, each key
// as its row in config/keys.cpp says: what decides is applied, what made the runs cannot
// change after the fact, the budgets only bounded the duel.

namespace perfduel::config {

namespace {

// `metric`'s source in words, as the configuration writes it: `regex "t: (\d+)"`, `wall_time`.
std::string source_text(const MetricSpec& metric) {
  switch (metric.source) {
    case MetricSource::regex:
      return fmt::format("regex \"{}\"", metric.pattern);
    case MetricSource::json_pointer:
      return fmt::format("json_pointer \"{}\"", metric.pattern);
    case MetricSource::google_benchmark:
      return fmt::format("google_benchmark \"{}\", field {}", metric.benchmark, metric.field);
    case MetricSource::catch2:
      return fmt::format("catch2 \"{}\"", metric.benchmark);
    case MetricSource::counter:
      return fmt::format("counter {}", util::name_of(k_counted_events, metric.event));
    case MetricSource::valgrind:
      if (metric.framework != BenchmarkFramework::none) {
        return fmt::format("{} \"{}\", valgrind {}",
                           metric.framework == BenchmarkFramework::catch2 ? "catch2" : "google_benchmark",
                           metric.benchmark, util::name_of(k_counted_events, metric.event));
      }
      return fmt::format("valgrind {}", util::name_of(k_counted_events, metric.event));
    case MetricSource::heap:
      return fmt::format("heap {}", util::name_of(k_counted_events, metric.event));
    default:
      return "the built-in " + metric.name;
  }
}

[[noreturn]] void fail_fixed(const Reader& reader, const YAML::Node& node, const std::string& what,
                             const std::string& report_value) {
  reader.fail(node, fmt::format("{} cannot change in a re-analysis: the report's runs were made with {} "
                                "(remove the key, or run a new duel)",
                                what, report_value));
}

// Whether `given`, the source `node` names, is the one `saved` was measured with. A benchmark
// pattern ("BM_Hash/*") stands for the benchmarks it was expanded to.
bool same_source(const MetricSpec& given, const MetricSpec& saved) {
  const bool pattern = is_benchmark_pattern(given);
  return given.source == saved.source && given.pattern == saved.pattern && given.event == saved.event &&
         given.field == saved.field && given.repetitions == saved.repetitions &&
         (pattern ? util::glob_match(given.benchmark, saved.benchmark) : given.benchmark == saved.benchmark);
}

// Fails when `node`, a metric's entry, gives `metric` another source than the report's: the
// metric keys that made the runs (its source key, field). A key of the pattern's expansion
// (missing) is checked as any value and then dropped.
void check_source(const Reader& reader, const YAML::Node& node, const MetricSpec& metric) {
  MetricSpec given = metric;
  read_source(reader, node, given);
  for (const auto& key : metric_keys()) {
    if (const auto where = node[std::string(key.name)];
        where && key.reanalysis == Reanalysis::made_the_runs) {
      if (!same_source(given, metric)) {
        fail_fixed(reader, where, fmt::format("the source of metric \"{}\"", metric.name),
                   source_text(metric));
      }
      return;
    }
  }
}

// The metrics of `config` that the metric key `key` of a re-analysis names: the metric of that
// name, or those a benchmark pattern of that name was expanded to ("key/<benchmark>").
std::vector<MetricSpec*> overlay_targets(const Reader& reader, const YAML::Node& key, Config& config) {
  const auto name = key.as<std::string>();
  std::vector<MetricSpec*> targets;
  for (auto& metric : config.metrics) {
    if (metric.name == name) {
      targets.push_back(&metric);
    }
  }
  if (targets.empty()) {
    for (auto& metric : config.metrics) {
      if (metric.name.starts_with(name + "/")) {
        targets.push_back(&metric);
      }
    }
  }
  if (targets.empty()) {
    std::vector<std::string> names;
    names.reserve(config.metrics.size());
    for (const auto& metric : config.metrics) {
      names.push_back(metric.name);
    }
    const auto suggestion = util::closest_match(name, names);
    reader.fail(key,
                fmt::format("metric \"{}\" is not in the report{}; the metrics measured cannot change in a "
                            "re-analysis (the report has {})",
                            name, suggestion ? fmt::format(" (did you mean \"{}\"?)", *suggestion) : "",
                            fmt::join(names, ", ")));
  }
  return targets;
}

// Lays the settings of metric `key`'s `node` over the report's metrics it names (overlay_targets).
void overlay_metric(const Reader& reader, const YAML::Node& key, const YAML::Node& node, Config& config) {
  const auto targets = overlay_targets(reader, key, config);
  if (node.IsNull()) {
    return;
  }
  reader.check_keys(node, key_names(metric_keys()), fmt::format("metric \"{}\"", key.as<std::string>()));
  for (MetricSpec* metric : targets) {
    check_source(reader, node, *metric);
    const std::string unit = metric->unit;
    // A tolerance at its default, half the threshold, follows a new threshold unless given too.
    const bool default_tolerance = metric->tolerance == k_default_tolerance_share * metric->threshold;
    read_metric_settings(reader, node, *metric);
    if (!node["unit"]) {
      metric->unit = unit;  // not a default for this source: the report's unit stays
    }
    if (default_tolerance && node["threshold"] && !node["tolerance"]) {
      metric->tolerance = k_default_tolerance_share * metric->threshold;
    }
  }
}

// Fails when `root` gives a command other than the report's.
void check_commands(const Reader& reader, const YAML::Node& root, const Config& config) {
  for (const auto& [key, saved] :
       {std::pair{"baseline", &config.baseline}, std::pair{"candidate", &config.candidate}}) {
    if (const auto node = root[key]) {
      const auto given = read_command(reader, node, key);
      if (!*saved || given.argv != (*saved)->argv || given.launch != (*saved)->launch ||
          given.working_directory != (*saved)->working_directory ||
          given.environment != (*saved)->environment) {
        fail_fixed(reader, node, fmt::format("\"{}\"", key),
                   *saved ? util::join_shell_words((*saved)->argv) : std::string("no command"));
      }
    }
  }
}

// Lays the top-level settings of `root` over `config`; returns the budgets given with another
// value than the report's.
std::vector<std::string> overlay_top_level(const Reader& reader, const YAML::Node& root, Config& config) {
  Config given = config;
  read_settings(reader, root, given);
  std::vector<std::string> ignored;
  for (const auto& key : top_level_keys()) {
    if (key.structural() || key.value.same(given, config)) {
      continue;
    }
    if (key.reanalysis == Reanalysis::made_the_runs) {
      fail_fixed(reader, root[std::string(key.name)], fmt::format("\"{}\"", key.name), key_text(key, config));
    }
    if (key.reanalysis == Reanalysis::budget) {
      ignored.emplace_back(key.name);
    }
  }
  for (const auto& key : top_level_keys()) {
    if (!key.structural() && key.reanalysis == Reanalysis::decides) {
      key.value.copy(given, config);
    }
  }
  return ignored;
}

// See apply_reanalysis_settings.
std::vector<std::string> overlay_settings(const Reader& reader, const YAML::Node& root, Config& config) {
  if (root.IsNull()) {
    return {};
  }
  reader.check_keys(root, key_names(top_level_keys()), "the configuration");
  check_commands(reader, root, config);
  auto ignored = overlay_top_level(reader, root, config);
  if (const auto metrics = root["metrics"]) {
    if (!metrics.IsMap()) {
      reader.fail(metrics, "\"metrics\" must be a mapping of metric names to settings");
    }
    for (const auto& item : metrics) {
      overlay_metric(reader, item.first, item.second, config);
    }
  }
  if (config.gated_metrics().empty()) {
    reader.fail(root, "no metric is gated; set \"gate: true\" on at least one metric");
  }
  return ignored;
}

// The changes of the metric keys that decide, one line per distinct change with the metrics it
// applies to, so that a threshold set on a suite of twenty benchmarks is one line.
std::vector<std::string> metric_changes(const Config& before, const Config& after) {
  std::vector<std::pair<std::string, std::vector<std::string>>> grouped;
  for (std::size_t m = 0; m < after.metrics.size() && m < before.metrics.size(); ++m) {
    for (const auto& key : metric_keys()) {
      if (key.structural() || key.reanalysis != Reanalysis::decides) {
        continue;
      }
      const auto now = key_text(key, after.metrics[m]);
      const auto was = key_text(key, before.metrics[m]);
      if (now == was) {
        continue;
      }
      const auto text = fmt::format("{} {} (was {})", key.name, now, was);
      auto entry = std::find_if(grouped.begin(), grouped.end(),
                                [&](const auto& change) { return change.first == text; });
      if (entry == grouped.end()) {
        entry = grouped.insert(grouped.end(), {text, {}});
      }
      entry->second.push_back(after.metrics[m].name);
    }
  }
  std::vector<std::string> changes;
  changes.reserve(grouped.size());
  for (const auto& [text, names] : grouped) {
    changes.push_back(names.size() > 3 ? fmt::format("{} metrics: {}", names.size(), text)
                                       : fmt::format("{}: {}", fmt::join(names, ", "), text));
  }
  return changes;
}

}  // namespace

}  // namespace perfduel::config

namespace perfduel {

std::vector<std::string> apply_reanalysis_settings(Config& config, const std::string& text,
                                                   const std::string& origin) {
  const config::Reader reader(origin, text);
  return config::overlay_settings(reader, config::load_yaml(text, origin), config);
}

void apply_reanalysis_setting(Config& config, const std::string& key, const std::string& metric,
                              const std::string& value, const std::string& origin) {
  // The setting as the one key of a configuration, read by the same code as a file.
  YAML::Node root(YAML::NodeType::Map);
  const auto metric_keys = config::key_names(config::metric_keys());
  if (std::find(metric_keys.begin(), metric_keys.end(), key) != metric_keys.end()) {
    YAML::Node metrics(YAML::NodeType::Map);
    for (const auto& spec : config.metrics) {
      if (metric.empty() || spec.name == metric) {
        metrics[spec.name][key] = value;
      }
    }
    if (!metric.empty() && metrics.size() == 0) {
      metrics[metric][key] = value;  // not in the report: overlay_metric names it
    }
    root["metrics"] = metrics;
  } else {
    root[key] = value;
  }
  config::overlay_settings(config::Reader(origin, ""), root, config);
}

std::vector<std::string> settings_changes(const Config& before, const Config& after) {
  std::vector<std::string> changes;
  for (const auto& key : config::top_level_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::decides) {
      continue;
    }
    const auto now = config::key_text(key, after);
    const auto was = config::key_text(key, before);
    if (now != was) {
      changes.push_back(fmt::format("{} {} (was {})", key.name, now, was));
    }
  }
  const auto per_metric = config::metric_changes(before, after);
  changes.insert(changes.end(), per_metric.begin(), per_metric.end());
  return changes;
}

}  // namespace perfduel
