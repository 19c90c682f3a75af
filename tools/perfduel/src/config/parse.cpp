#include "config/parse.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "config/keys.hpp"
#include "config/metric_units.hpp"
#include "config/names.hpp"
#include "util/shell_words.hpp"

namespace perfduel::config {

namespace {

const std::vector<std::string> k_builtin_metrics{"wall_time", "user_time", "system_time", "max_rss"};
// The default tolerance of a counted metric (see read_metric).
constexpr double k_counted_tolerance = 0.001;
// The widest default tolerance of a higher-is-better metric (a rate cannot fall by 100 %).
constexpr double k_widest_better_tolerance = 0.9;

MetricSpec builtin_metric(const std::string& name) {
  MetricSpec metric;
  metric.name = name;
  if (name == "wall_time") {
    metric.source = MetricSource::wall_time;
    metric.unit = k_unit_seconds;
    metric.gating = Gating::gated;
  } else if (name == "user_time") {
    metric.source = MetricSource::user_time;
    metric.unit = k_unit_seconds;
  } else if (name == "system_time") {
    metric.source = MetricSource::system_time;
    metric.unit = k_unit_seconds;
  } else {
    metric.source = MetricSource::max_rss;
    metric.unit = k_unit_bytes;
  }
  return metric;
}

// Whether a metric of `source` is counted: the same on every run of one program, compared
// exactly (within k_counted_tolerance).
bool counted_source(MetricSource source) {
  return source == MetricSource::counter || source == MetricSource::valgrind ||
         source == MetricSource::binary_size || source == MetricSource::heap;
}

// Whether a metric of `source` needs no plain, timed run of the program.
bool needs_no_plain_run(MetricSource source) {
  return source == MetricSource::valgrind || source == MetricSource::binary_size;
}

// The entry of metric `key` in `config`: the built-in one, or a new gated one.
MetricSpec& metric_entry(const Reader& reader, const YAML::Node& key, Config& config, bool builtin) {
  const auto name = reader.key(key, "\"metrics\"");
  const auto same_name = [&](const MetricSpec& m) { return m.name == name; };
  if (builtin) {
    return *std::find_if(config.metrics.begin(), config.metrics.end(), same_name);
  }
  if (std::any_of(config.metrics.begin(), config.metrics.end(), same_name)) {
    reader.fail(key, fmt::format("metric \"{}\" is defined twice", name));
  }
  auto& metric = config.metrics.emplace_back();
  metric.name = name;
  metric.gating = Gating::gated;
  return metric;
}

// The unit of a benchmark's count of `event` per iteration.
const char* per_iteration_unit(CountedEvent event) {
  switch (event) {
    case CountedEvent::cycles:
      return k_unit_cycles_per_iteration;
    case CountedEvent::allocations:
      return k_unit_allocations_per_iteration;
    case CountedEvent::allocated_bytes:
      return k_unit_bytes_per_iteration;
    default:
      return k_unit_instructions_per_iteration;
  }
}

// The unit of a Google Benchmark `field`: times are read in seconds (the extractor converts
// from the benchmark's time_unit), the two rates it computes itself are per second, and any
// other field is a user counter, a plain number.
std::string google_benchmark_unit(const std::string& field) {
  if (field == "real_time" || field == "cpu_time") {
    return k_unit_seconds;
  }
  if (field == "bytes_per_second") {
    return k_unit_bytes_per_second;
  }
  return field == "items_per_second" ? k_unit_items_per_second : "";
}

// Above 100 % a tolerance is for a lower-is-better metric only ("fail only beyond 3x slower":
// 200 %); the better side of such a band is out of reach, so only regressions beyond it are
// decided. A higher-is-better metric cannot fall by 100 % or more.
void check_tolerance_direction(const Reader& reader, const YAML::Node& node, const MetricSpec& metric) {
  if (metric.direction == Direction::higher_is_better && metric.tolerance >= 1.0) {
    const YAML::Node& where = node["tolerance"]   ? node["tolerance"]
                              : node["direction"] ? node["direction"]
                                                  : node;
    reader.fail(where,
                fmt::format("\"tolerance\" of {} needs a lower-is-better metric: a higher-is-better one "
                            "cannot fall by 100 % or more, so its gate could never fail",
                            util::format_percent(metric.tolerance).substr(1)));
  }
}

void read_metric(const Reader& reader, const YAML::Node& key, const YAML::Node& node, Config& config) {
  const auto name = reader.key(key, "\"metrics\"");
  const bool builtin =
      std::find(k_builtin_metrics.begin(), k_builtin_metrics.end(), name) != k_builtin_metrics.end();
  MetricSpec& metric = metric_entry(reader, key, config, builtin);
  const bool binary_size = name == k_binary_size_metric;
  if (binary_size) {
    metric.source = MetricSource::binary_size;
    metric.unit = k_unit_bytes;
    metric.tolerance = k_counted_tolerance;
  }
  if (node.IsNull() && binary_size) {
    return;
  }
  if (node.IsNull()) {
    if (!builtin) {
      reader.fail(key, fmt::format("metric \"{}\" needs a source: regex, json_pointer, google_benchmark, "
                                   "catch2, counter, valgrind or heap",
                                   name));
    }
    return;
  }
  reader.check_keys(node, key_names(metric_keys()), fmt::format("metric \"{}\"", name));
  const int sources = read_source(reader, node, metric);
  if ((builtin || binary_size) && sources > 0) {
    reader.fail(key, fmt::format("\"{}\" is a built-in metric and takes no source; pick another name", name));
  }
  if (!builtin && !binary_size && sources != 1) {
    reader.fail(key, fmt::format("metric \"{}\" needs exactly one source: regex, json_pointer, "
                                 "google_benchmark, catch2, counter, valgrind or heap",
                                 name));
  }
  if (counted_source(metric.source) && metric.source != MetricSource::binary_size) {
    // A count is the same on every run, so its interval is a point and any difference at all
    // is certain; the program's path and environment alone move a count by a few
    // instructions (12 in 11.8 million for a longer directory name). Differences below 0.1 %
    // are no change unless the configuration says otherwise.
    metric.tolerance = k_counted_tolerance;
  }
  read_metric_settings(reader, node, metric);
}

// Counted metrics (counter, valgrind, binary_size) are there because wall time is too noisy to
// gate on, so a configuration with one gates wall time only when it says so. When every gated
// metric is counted by Valgrind or read from the program's file, nothing needs the plain, timed
// runs: the built-in metrics the configuration does not name are dropped, and so is the warm-up
// unless set (counts do not warm up), so that each round is one Valgrind run per side and
// nothing else (a gate on binary_size alone runs nothing).
void apply_counted_defaults(const YAML::Node& root, Config& config) {
  const auto metrics = root["metrics"];
  const auto named = [&](const std::string& name) { return metrics && metrics.IsMap() && metrics[name]; };
  const auto counted = [](const MetricSpec& m) { return counted_source(m.source); };
  if (std::none_of(config.metrics.begin(), config.metrics.end(), counted)) {
    return;
  }
  if (!(named("wall_time") && metrics["wall_time"].IsMap() && metrics["wall_time"]["gate"])) {
    for (auto& metric : config.metrics) {
      if (metric.name == "wall_time") {
        metric.gating = Gating::report_only;
      }
    }
  }
  const auto gated = config.gated_metrics();
  if (gated.empty() || !std::all_of(gated.begin(), gated.end(),
                                    [](const MetricSpec* m) { return needs_no_plain_run(m->source); })) {
    return;
  }
  std::erase_if(config.metrics, [&](const MetricSpec& m) {
    return std::find(k_builtin_metrics.begin(), k_builtin_metrics.end(), m.name) != k_builtin_metrics.end() &&
           !named(m.name);
  });
  if (!root["warmup"]) {
    config.warmup = 0;
  }
}

// A metric's tolerance is the change it may show and still be no change. At tolerance 0 every
// certain difference, however small, is a regression: a +0.94 % [+0.00 %, +1.88 %] under a 2 %
// threshold failed the gate, which is not what a user means by one, and no interval could ever
// show "no change" (a band of width 0 contains none). So, unless its entry sets a tolerance, a
// metric that is not counted has half its threshold (±1 % at the default 2 %): the band is then as
// wide as the interval the threshold asks for, and a metric known to ±T/2 around 0 passes.
// Gated counted metrics keep k_counted_tolerance: their intervals are points, and a gate on
// instructions is there to see a change of a few tenths of a percent. `root` is the
// configuration (null for the defaults).
void apply_default_tolerance(const YAML::Node& root, Config& config) {
  const auto metrics = root.IsMap() ? root["metrics"] : YAML::Node();
  for (auto& metric : config.metrics) {
    const auto entry = metrics && metrics.IsMap() ? metrics[metric.name] : YAML::Node();
    const bool counted = counted_source(metric.source);
    if (!(counted && metric.gating == Gating::gated) && !(entry && entry.IsMap() && entry["tolerance"])) {
      double tolerance = k_default_tolerance_share * metric.threshold;
      if (metric.direction == Direction::higher_is_better) {
        tolerance = std::min(tolerance, k_widest_better_tolerance);  // it cannot fall by 100 %
      }
      metric.tolerance = std::max(metric.tolerance, tolerance);
    }
  }
}

void read_config(const Reader& reader, const YAML::Node& root, Config& config) {
  if (root.IsNull()) {
    return;  // an empty file means all defaults
  }
  reader.check_keys(root, key_names(top_level_keys()), "the configuration");
  if (root["baseline"]) {
    config.baseline = read_command(reader, root["baseline"], "baseline");
  }
  if (root["candidate"]) {
    config.candidate = read_command(reader, root["candidate"], "candidate");
  }
  read_settings(reader, root, config);
  if (const auto metrics = root["metrics"]) {
    if (!metrics.IsMap()) {
      reader.fail(metrics, "\"metrics\" must be a mapping of metric names to settings");
    }
    for (const auto& item : metrics) {
      read_metric(reader, item.first, item.second, config);
    }
    apply_counted_defaults(root, config);
  }
  if (config.max_rounds < config.min_rounds) {
    reader.fail(root["max_rounds"] ? root["max_rounds"] : root["min_rounds"],
                fmt::format("\"max_rounds\" ({}) is below \"min_rounds\" ({})", config.max_rounds,
                            config.min_rounds));
  }
  if (config.gated_metrics().empty()) {
    reader.fail(root, "no metric is gated; set \"gate: true\" on at least one metric");
  }
}

// The built-in metrics with their own defaults, before any configuration is applied.
Config builtin_config() {
  Config config;
  for (const auto& name : k_builtin_metrics) {
    config.metrics.push_back(builtin_metric(name));
  }
  return config;
}

// The counted sources of `node` (counter, valgrind) into `metric`: how many it names, valgrind
// with google_benchmark or catch2 counting as one with them.
int read_counted_source(const Reader& reader, const YAML::Node& node, MetricSpec& metric) {
  int sources = 0;
  if (const auto counter = node["counter"]) {
    metric.source = MetricSource::counter;
    metric.event = reader.choice(counter, "counter", k_hardware_events);
    if (node["google_benchmark"] || node["catch2"]) {
      // A PMU window per benchmark would need the CPU's counters read around each timed loop,
      // from outside the unmodified binary: not done; Valgrind counts each benchmark instead.
      reader.fail(counter, fmt::format("\"counter\" counts the whole process, not each benchmark; count each "
                                       "benchmark with valgrind: {} instead",
                                       counted_event_name(metric.event)));
    }
    ++sources;
  }
  if (const auto valgrind = node["valgrind"]) {
    metric.source = MetricSource::valgrind;
    metric.event = reader.choice(valgrind, "valgrind", k_valgrind_events);
    if (node["google_benchmark"] || node["catch2"]) {
      // Together they are one source: the count of each benchmark's timed loop, per iteration.
      metric.framework = node["catch2"] ? BenchmarkFramework::catch2 : BenchmarkFramework::google_benchmark;
      metric.field = counted_event_name(metric.event);
      metric.unit = per_iteration_unit(metric.event);
      --sources;
    } else if (is_allocation_event(metric.event)) {
      reader.fail(valgrind,
                  fmt::format("\"valgrind: {0}\" counts each benchmark's allocations per iteration: "
                              "give the benchmarks too (google_benchmark or catch2), or count the "
                              "whole program's with heap: {0}",
                              counted_event_name(metric.event)));
    }
    ++sources;
  }
  if (const auto heap = node["heap"]) {
    metric.source = MetricSource::heap;
    metric.event = reader.choice(heap, "heap", k_heap_events);
    metric.unit = metric.event == CountedEvent::allocations ? k_unit_allocations : k_unit_bytes;
    if (node["google_benchmark"] || node["catch2"]) {
      // Callgrind's counts of the marker calls in a benchmark's window give its allocations and
      // bytes exactly; which blocks are live at once they cannot tell.
      reader.fail(heap,
                  "\"heap\" counts the whole program's run, not each benchmark: count each benchmark's "
                  "allocations and bytes with valgrind: allocations or allocated_bytes (a benchmark's "
                  "peak heap is not counted: the marker calls callgrind counts in its window give its "
                  "allocations and bytes exactly, but not which blocks are live at once)");
    }
    ++sources;
  }
  return sources;
}

}  // namespace

CommandSpec read_command(const Reader& reader, const YAML::Node& node, const std::string& side) {
  CommandSpec command;
  // The short form (a string or a list) becomes {command: ...} in a fresh node: assigning to a
  // YAML::Node copied from `node` would overwrite `node` itself, since copies share their data.
  const bool short_form = node.IsScalar() || node.IsSequence();
  YAML::Node map = short_form ? YAML::Node(YAML::NodeType::Map) : node;
  if (short_form) {
    map["command"] = node;
  }
  reader.check_keys(map, key_names(command_keys()), fmt::format("\"{}\"", side));
  if (map["shell"] && reader.boolean(map["shell"], "shell")) {
    command.launch = Launch::shell;
  }
  const auto text = map["command"];
  if (!text) {
    reader.fail(node, fmt::format("\"{}\" needs a \"command\"", side));
  }
  if (text.IsSequence()) {
    for (const auto& word : text) {
      command.argv.push_back(reader.scalar(word, "command"));
    }
  } else if (command.launch == Launch::shell) {
    command.argv = {reader.scalar(text, "command")};
  } else {
    command.argv = reader.unwrap(text, "command", util::split_shell_words(reader.scalar(text, "command")));
  }
  if (command.argv.empty() || command.argv.front().empty()) {
    reader.fail(text, fmt::format("\"{}\" command is empty", side));
  }
  if (map["working_directory"]) {
    command.working_directory = reader.scalar(map["working_directory"], "working_directory");
  }
  if (const auto env = map["env"]) {
    if (!env.IsMap()) {
      reader.fail(env, "\"env\" must be a mapping of variable names to values");
    }
    for (const auto& item : env) {
      command.environment[reader.key(item.first, "\"env\"")] = reader.scalar(item.second, "env");
    }
  }
  return command;
}

int read_source(const Reader& reader, const YAML::Node& node, MetricSpec& metric) {
  int sources = 0;
  if (const auto regex = node["regex"]) {
    metric.source = MetricSource::regex;
    metric.pattern = reader.scalar(regex, "regex");
    try {
      const std::regex compiled(metric.pattern);
      if (compiled.mark_count() != 1) {
        reader.fail(regex, fmt::format("\"regex\" must have exactly one capture group, \"{}\" has {}",
                                       metric.pattern, compiled.mark_count()));
      }
    } catch (const std::regex_error& e) {
      reader.fail(regex,
                  fmt::format("\"regex\": invalid regular expression \"{}\": {}", metric.pattern, e.what()));
    }
    ++sources;
  }
  if (const auto pointer = node["json_pointer"]) {
    metric.source = MetricSource::json_pointer;
    metric.pattern = reader.scalar(pointer, "json_pointer");
    try {
      const nlohmann::json::json_pointer check(metric.pattern);
    } catch (const nlohmann::json::exception&) {
      reader.fail(pointer,
                  fmt::format("\"json_pointer\": invalid JSON pointer \"{}\" (write e.g. /results/0/time)",
                              metric.pattern));
    }
    ++sources;
  }
  if (const auto benchmark = node["google_benchmark"]) {
    metric.source = MetricSource::google_benchmark;
    metric.benchmark = reader.scalar(benchmark, "google_benchmark");
    metric.field = "real_time";
    ++sources;
  }
  if (const auto benchmark = node["catch2"]) {
    metric.source = MetricSource::catch2;
    metric.benchmark = reader.scalar(benchmark, "catch2");
    metric.field = "mean";
    metric.unit = k_unit_seconds;
    ++sources;
  }
  sources += read_counted_source(reader, node, metric);
  // The keys that come with a source (field, missing).
  for (const auto& key : metric_keys()) {
    if (const auto value = node[std::string(key.name)];
        value && !key.structural() && key.reanalysis != Reanalysis::decides) {
      read_key(key, reader, value, metric);
    }
  }
  return sources;
}

void read_metric_settings(const Reader& reader, const YAML::Node& node, MetricSpec& metric) {
  for (const auto& key : metric_keys()) {
    if (const auto value = node[std::string(key.name)];
        value && !key.structural() && key.reanalysis == Reanalysis::decides) {
      read_key(key, reader, value, metric);
    }
  }
  const bool rate = metric.field == "bytes_per_second" || metric.field == "items_per_second";
  if (!node["direction"] && metric.source == MetricSource::google_benchmark && rate) {
    metric.direction = Direction::higher_is_better;  // a rate: more per second is faster
  }
  check_tolerance_direction(reader, node, metric);
  if (!node["estimator"] && is_benchmark_pattern(metric)) {
    // A suite's benchmarks have heavy tails (a run's hiccup lands on one benchmark of many):
    // its trimmed mean passes an unchanged suite in a third fewer rounds at the same errors
    // (docs/validation.md, "Suites").
    metric.estimator = Estimator::trimmed;
  }
  if (!node["unit"] && metric.source == MetricSource::google_benchmark) {
    metric.unit = google_benchmark_unit(metric.field);
  }
}

void read_settings(const Reader& reader, const YAML::Node& root, Config& config) {
  for (const auto& key : top_level_keys()) {
    if (const auto value = root[std::string(key.name)]; value && !key.structural()) {
      read_key(key, reader, value, config);
    }
  }
}

}  // namespace perfduel::config

namespace perfduel {

Config default_config() {
  Config config = config::builtin_config();
  config::apply_default_tolerance(YAML::Node(), config);
  return config;
}

Config parse_config(const std::string& text, const std::string& origin) {
  Config config = config::builtin_config();
  config.origin = origin;
  const config::Reader reader(origin, text);
  const YAML::Node root = config::load_yaml(text, origin);
  config::read_config(reader, root, config);
  config::apply_default_tolerance(root, config);
  return config;
}

}  // namespace perfduel
