#include "config/config.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "util/error.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

const std::vector<std::string> k_top_level_keys{"baseline",
                                                "candidate",
                                                "metrics",
                                                "confidence",
                                                "warmup",
                                                "detect_warmup",
                                                "min_rounds",
                                                "max_rounds",
                                                "max_seconds",
                                                "timeout",
                                                "cpus",
                                                "order",
                                                "seed",
                                                "stopping",
                                                "correction",
                                                "inconclusive",
                                                "autocorrelation_limit",
                                                "min_batches",
                                                "best_of",
                                                "stability_limit"};
const std::vector<std::string> k_command_keys{"command", "shell", "working_directory", "env"};
const std::vector<std::string> k_metric_keys{"threshold",        "tolerance", "gate",    "direction",
                                             "estimator",        "unit",      "regex",   "json_pointer",
                                             "google_benchmark", "field",     "counter", "valgrind"};
const std::vector<std::string> k_builtin_metrics{"wall_time", "user_time", "system_time", "max_rss"};
const std::vector<std::pair<std::string, CountedEvent>> k_counted_events{
    {"instructions", CountedEvent::instructions},
    {"cycles", CountedEvent::cycles},
    {"branch-misses", CountedEvent::branch_misses},
    {"cache-misses", CountedEvent::cache_misses}};
// The default tolerance of a counted metric (see read_metric).
constexpr double k_counted_tolerance = 0.001;
// Valgrind's cachegrind counts instructions and, with its cache simulation, estimates cycles.
const std::vector<std::pair<std::string, CountedEvent>> k_valgrind_events{
    {"instructions", CountedEvent::instructions}, {"cycles", CountedEvent::cycles}};

// Reads one YAML document and reports problems as "<origin>:<line>: <message>".
class Reader {
 public:
  explicit Reader(std::string origin) : m_origin(std::move(origin)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const auto mark = node.Mark();
    if (mark.is_null()) {
      throw Error(fmt::format("{}: {}", m_origin, message));
    }
    throw Error(fmt::format("{}:{}: {}", m_origin, mark.line + 1, message));
  }

  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& where) const {
    if (!map.IsMap()) {
      fail(map, fmt::format("{} must be a mapping of keys to values", where));
    }
    for (const auto& item : map) {
      const auto key = item.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
        continue;
      }
      const auto suggestion = util::closest_match(key, allowed);
      fail(item.first, suggestion ? fmt::format("unknown key \"{}\" (did you mean \"{}\"?)", key, *suggestion)
                                  : fmt::format("unknown key \"{}\" in {}", key, where));
    }
  }

  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) {
      fail(node, fmt::format("\"{}\" must be a single value", key));
    }
    return node.Scalar();
  }

  template <typename T>
  T unwrap(const YAML::Node& node, const std::string& key, util::Expected<T> value) const {
    if (!value) {
      fail(node, fmt::format("\"{}\": {}", key, value.error()));
    }
    return std::move(value).value();
  }

  double number(const YAML::Node& node, const std::string& key, double min, double max) const {
    const double value = unwrap(node, key, util::parse_double(scalar(node, key)));
    if (value < min || value > max) {
      fail(node, fmt::format("\"{}\" must be between {} and {}, not {}", key, min, max, value));
    }
    return value;
  }

  int integer(const YAML::Node& node, const std::string& key, int min) const {
    const double value = number(node, key, min, 1e9);
    if (value != static_cast<double>(static_cast<int>(value))) {
      fail(node, fmt::format("\"{}\" must be a whole number, not {}", key, value));
    }
    return static_cast<int>(value);
  }

  double fraction(const YAML::Node& node, const std::string& key, double min, double max) const {
    const double value = unwrap(node, key, util::parse_fraction(scalar(node, key)));
    if (value < min || value > max) {
      fail(node, fmt::format("\"{}\" must be between {} and {}, not {}", key, util::format_percent(min),
                             util::format_percent(max), scalar(node, key)));
    }
    return value;
  }

  double duration(const YAML::Node& node, const std::string& key) const {
    return unwrap(node, key, util::parse_duration(scalar(node, key)));
  }

  bool boolean(const YAML::Node& node, const std::string& key) const {
    const auto text = scalar(node, key);
    if (text == "true" || text == "yes" || text == "on") {
      return true;
    }
    if (text == "false" || text == "no" || text == "off") {
      return false;
    }
    fail(node, fmt::format("\"{}\" must be true or false, not \"{}\"", key, text));
  }

  template <typename Enum>
  Enum choice(const YAML::Node& node, const std::string& key,
              const std::vector<std::pair<std::string, Enum>>& choices) const {
    const auto text = scalar(node, key);
    std::vector<std::string> names;
    for (const auto& [name, value] : choices) {
      if (name == text) {
        return value;
      }
      names.push_back(name);
    }
    std::string list;
    for (const auto& name : names) {
      list += (list.empty() ? "" : ", ") + name;
    }
    fail(node, fmt::format("\"{}\" must be one of {}, not \"{}\"", key, list, text));
  }

  const std::string& origin() const { return m_origin; }

 private:
  std::string m_origin;
};

CommandSpec read_command(const Reader& reader, const YAML::Node& node, const std::string& side) {
  CommandSpec command;
  // The short form (a string or a list) becomes {command: ...} in a fresh node: assigning to a
  // YAML::Node copied from `node` would overwrite `node` itself, since copies share their data.
  const bool short_form = node.IsScalar() || node.IsSequence();
  YAML::Node map = short_form ? YAML::Node(YAML::NodeType::Map) : node;
  if (short_form) {
    map["command"] = node;
  }
  reader.check_keys(map, k_command_keys, fmt::format("\"{}\"", side));
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
      command.environment[item.first.as<std::string>()] = reader.scalar(item.second, "env");
    }
  }
  return command;
}

MetricSpec builtin_metric(const std::string& name) {
  MetricSpec metric;
  metric.name = name;
  if (name == "wall_time") {
    metric.source = MetricSource::wall_time;
    metric.unit = "s";
    metric.gating = Gating::gated;
  } else if (name == "user_time") {
    metric.source = MetricSource::user_time;
    metric.unit = "s";
  } else if (name == "system_time") {
    metric.source = MetricSource::system_time;
    metric.unit = "s";
  } else {
    metric.source = MetricSource::max_rss;
    metric.unit = "B";
  }
  return metric;
}

void read_metric(const Reader& reader, const YAML::Node& key, const YAML::Node& node, Config& config) {
  const auto name = key.as<std::string>();
  const bool builtin =
      std::find(k_builtin_metrics.begin(), k_builtin_metrics.end(), name) != k_builtin_metrics.end();
  MetricSpec* metric = nullptr;
  if (builtin) {
    metric = &*std::find_if(config.metrics.begin(), config.metrics.end(),
                            [&](const MetricSpec& m) { return m.name == name; });
  } else {
    if (std::any_of(config.metrics.begin(), config.metrics.end(),
                    [&](const MetricSpec& m) { return m.name == name; })) {
      reader.fail(key, fmt::format("metric \"{}\" is defined twice", name));
    }
    config.metrics.emplace_back();
    metric = &config.metrics.back();
    metric->name = name;
    metric->gating = Gating::gated;
  }
  if (node.IsNull()) {
    if (!builtin) {
      reader.fail(
          key, fmt::format("metric \"{}\" needs a source: regex, json_pointer, google_benchmark, counter or "
                           "valgrind",
                           name));
    }
    return;
  }
  reader.check_keys(node, k_metric_keys, fmt::format("metric \"{}\"", name));

  int sources = 0;
  if (const auto regex = node["regex"]) {
    metric->source = MetricSource::regex;
    metric->pattern = reader.scalar(regex, "regex");
    try {
      const std::regex compiled(metric->pattern);
      if (compiled.mark_count() != 1) {
        reader.fail(regex, fmt::format("\"regex\" must have exactly one capture group, \"{}\" has {}",
                                       metric->pattern, compiled.mark_count()));
      }
    } catch (const std::regex_error& e) {
      reader.fail(regex,
                  fmt::format("\"regex\": invalid regular expression \"{}\": {}", metric->pattern, e.what()));
    }
    ++sources;
  }
  if (const auto pointer = node["json_pointer"]) {
    metric->source = MetricSource::json_pointer;
    metric->pattern = reader.scalar(pointer, "json_pointer");
    try {
      nlohmann::json::json_pointer check(metric->pattern);
    } catch (const nlohmann::json::exception&) {
      reader.fail(pointer,
                  fmt::format("\"json_pointer\": invalid JSON pointer \"{}\" (write e.g. /results/0/time)",
                              metric->pattern));
    }
    ++sources;
  }
  if (const auto benchmark = node["google_benchmark"]) {
    metric->source = MetricSource::google_benchmark;
    metric->benchmark = reader.scalar(benchmark, "google_benchmark");
    metric->field = "real_time";
    ++sources;
  }
  if (const auto counter = node["counter"]) {
    metric->source = MetricSource::counter;
    metric->event = reader.choice<CountedEvent>(counter, "counter", k_counted_events);
    ++sources;
  }
  if (const auto valgrind = node["valgrind"]) {
    metric->source = MetricSource::valgrind;
    metric->event = reader.choice<CountedEvent>(valgrind, "valgrind", k_valgrind_events);
    ++sources;
  }
  if (const auto field = node["field"]) {
    if (metric->source != MetricSource::google_benchmark) {
      reader.fail(field, "\"field\" only applies with \"google_benchmark\"");
    }
    metric->field = reader.scalar(field, "field");
  }
  if (builtin && sources > 0) {
    reader.fail(key, fmt::format("\"{}\" is a built-in metric and takes no source; pick another name", name));
  }
  if (!builtin && sources != 1) {
    reader.fail(
        key, fmt::format(
                 "metric \"{}\" needs exactly one source: regex, json_pointer, google_benchmark, counter or "
                 "valgrind",
                 name));
  }

  if (metric->source == MetricSource::counter || metric->source == MetricSource::valgrind) {
    // A count is the same on every run, so its interval is a point and any difference at all
    // is certain; the program's path and environment alone move a count by a few
    // instructions (12 in 11.8 million for a longer directory name). Differences below 0.1 %
    // are no change unless the configuration says otherwise.
    metric->tolerance = k_counted_tolerance;
  }
  if (node["threshold"]) {
    metric->threshold = reader.fraction(node["threshold"], "threshold", 1e-6, 10.0);
  }
  if (node["tolerance"]) {
    metric->tolerance = reader.fraction(node["tolerance"], "tolerance", 0.0, 1.0);
  }
  if (node["gate"]) {
    metric->gating = reader.boolean(node["gate"], "gate") ? Gating::gated : Gating::report_only;
  }
  if (node["direction"]) {
    metric->direction = reader.choice<Direction>(
        node["direction"], "direction",
        {{"lower", Direction::lower_is_better}, {"higher", Direction::higher_is_better}});
  }
  if (node["estimator"]) {
    metric->estimator = reader.choice<Estimator>(
        node["estimator"], "estimator",
        {{"mean", Estimator::mean}, {"median", Estimator::median}, {"min", Estimator::min}});
  }
  if (node["unit"]) {
    metric->unit = reader.scalar(node["unit"], "unit");
  }
}

// Counted metrics (counter, valgrind) are there because wall time is too noisy to gate on, so
// a configuration with one gates wall time only when it says so. When every gated metric is
// counted by Valgrind, nothing needs the plain, timed runs: the built-in metrics the
// configuration does not name are dropped, and so is the warm-up unless set (counts do not
// warm up), so that each round is one Valgrind run per side and nothing else.
void apply_counted_defaults(const YAML::Node& root, Config& config) {
  const auto metrics = root["metrics"];
  const auto named = [&](const std::string& name) { return metrics && metrics.IsMap() && metrics[name]; };
  const auto counted = [](const MetricSpec& m) {
    return m.source == MetricSource::counter || m.source == MetricSource::valgrind;
  };
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
  if (gated.empty() || !std::all_of(gated.begin(), gated.end(), [](const MetricSpec* m) {
        return m->source == MetricSource::valgrind;
      })) {
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

void read_config(const Reader& reader, const YAML::Node& root, Config& config) {
  if (root.IsNull()) {
    return;  // an empty file means all defaults
  }
  reader.check_keys(root, k_top_level_keys, "the configuration");
  if (root["baseline"]) {
    config.baseline = read_command(reader, root["baseline"], "baseline");
  }
  if (root["candidate"]) {
    config.candidate = read_command(reader, root["candidate"], "candidate");
  }
  if (const auto node = root["confidence"]) {
    config.confidence = reader.fraction(node, "confidence", 0.5, 0.9999);
  }
  if (const auto node = root["warmup"]) {
    config.warmup = reader.integer(node, "warmup", 0);
  }
  if (const auto node = root["detect_warmup"]) {
    config.detect_warmup = reader.boolean(node, "detect_warmup");
  }
  if (const auto node = root["min_rounds"]) {
    config.min_rounds = reader.integer(node, "min_rounds", 2);
  }
  if (const auto node = root["max_rounds"]) {
    config.max_rounds = reader.integer(node, "max_rounds", 2);
  }
  if (const auto node = root["max_seconds"]) {
    config.max_seconds = reader.duration(node, "max_seconds");
  }
  if (const auto node = root["timeout"]) {
    config.run_timeout = reader.duration(node, "timeout");
    if (config.run_timeout <= 0) {
      reader.fail(node, "\"timeout\" must be positive");
    }
  }
  if (const auto node = root["cpus"]) {
    std::string text;
    if (node.IsSequence()) {
      for (const auto& cpu : node) {
        text += (text.empty() ? "" : ",") + reader.scalar(cpu, "cpus");
      }
    } else {
      text = reader.scalar(node, "cpus");
    }
    if (!text.empty() || !node.IsSequence()) {  // an empty list means no pinning
      config.cpus = reader.unwrap(node, "cpus", util::parse_cpu_list(text));
    }
  }
  if (const auto node = root["order"]) {
    config.order = reader.choice<Order>(node, "order", {{"random", Order::random}, {"abba", Order::abba}});
  }
  if (const auto node = root["seed"]) {
    const auto text = reader.scalar(node, "seed");
    try {
      // Digits only: std::stoull would read "-1" as 2^64 - 1 and skip leading blanks.
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        throw std::invalid_argument(text);
      }
      config.seed = std::stoull(text);
    } catch (const std::exception&) {
      reader.fail(node, fmt::format("\"seed\" must be a non-negative whole number, not \"{}\"", text));
    }
  }
  if (const auto node = root["stopping"]) {
    config.stopping = reader.choice<Stopping>(
        node, "stopping",
        {{"hybrid", Stopping::hybrid}, {"width", Stopping::width}, {"anytime", Stopping::anytime}});
  }
  if (const auto node = root["correction"]) {
    config.correction = reader.choice<Correction>(
        node, "correction", {{"bonferroni", Correction::bonferroni}, {"holm", Correction::holm}});
  }
  if (const auto node = root["inconclusive"]) {
    config.on_inconclusive = reader.choice<InconclusivePolicy>(node, "inconclusive",
                                                               {{"skip", InconclusivePolicy::skip},
                                                                {"fail", InconclusivePolicy::fail},
                                                                {"pass", InconclusivePolicy::pass}});
  }
  if (const auto node = root["autocorrelation_limit"]) {
    config.autocorrelation_limit = reader.number(node, "autocorrelation_limit", 0.0, 1.0);
  }
  if (const auto node = root["min_batches"]) {
    config.min_batches = reader.integer(node, "min_batches", 2);
  }
  if (const auto node = root["best_of"]) {
    config.min_best_of = reader.integer(node, "best_of", 1);
  }
  if (const auto node = root["stability_limit"]) {
    config.stability_limit = reader.fraction(node, "stability_limit", 0.0, 10.0);
  }
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

}  // namespace

std::vector<const MetricSpec*> Config::gated_metrics() const {
  std::vector<const MetricSpec*> gated;
  for (const auto& metric : metrics) {
    if (metric.gating == Gating::gated) {
      gated.push_back(&metric);
    }
  }
  return gated;
}

Config default_config() {
  Config config;
  for (const auto& name : k_builtin_metrics) {
    config.metrics.push_back(builtin_metric(name));
  }
  return config;
}

Config parse_config(const std::string& text, const std::string& origin) {
  Config config = default_config();
  config.origin = origin;
  const Reader reader(origin);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}: malformed YAML: {}", origin, e.mark.line + 1, e.msg));
  }
  read_config(reader, root, config);
  return config;
}

Config load_config(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) {
    throw Error(fmt::format("{}: cannot read the configuration file", path.string()));
  }
  std::stringstream text;
  text << file.rdbuf();
  return parse_config(text.str(), path.string());
}

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

const char* to_name(Direction direction) {
  return direction == Direction::lower_is_better ? "lower" : "higher";
}

const char* to_name(Estimator estimator) {
  switch (estimator) {
    case Estimator::mean:
      return "mean";
    case Estimator::median:
      return "median";
    case Estimator::min:
      return "min";
  }
  return "mean";
}

}  // namespace

const char* counted_event_name(CountedEvent event) {
  for (const auto& [name, value] : k_counted_events) {
    if (value == event) {
      return name.c_str();
    }
  }
  return "instructions";
}

std::string config_to_json(const Config& config) {
  nlohmann::ordered_json json;
  if (config.baseline) {
    json["baseline"] = command_to_json(*config.baseline);
  }
  if (config.candidate) {
    json["candidate"] = command_to_json(*config.candidate);
  }
  json["confidence"] = config.confidence;
  json["warmup"] = config.warmup;
  json["detect_warmup"] = config.detect_warmup;
  json["min_rounds"] = config.min_rounds;
  json["max_rounds"] = config.max_rounds;
  json["max_seconds"] = config.max_seconds;
  json["timeout"] = config.run_timeout;
  json["cpus"] = config.cpus;
  json["order"] = config.order == Order::random ? "random" : "abba";
  if (config.seed) {
    json["seed"] = *config.seed;
  }
  json["stopping"] = config.stopping == Stopping::hybrid  ? "hybrid"
                     : config.stopping == Stopping::width ? "width"
                                                          : "anytime";
  json["correction"] = config.correction == Correction::bonferroni ? "bonferroni" : "holm";
  json["inconclusive"] = config.on_inconclusive == InconclusivePolicy::skip   ? "skip"
                         : config.on_inconclusive == InconclusivePolicy::fail ? "fail"
                                                                              : "pass";
  json["autocorrelation_limit"] = config.autocorrelation_limit;
  json["min_batches"] = config.min_batches;
  json["best_of"] = config.min_best_of;
  json["stability_limit"] = config.stability_limit;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const auto& metric : config.metrics) {
    nlohmann::ordered_json item;
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
      case MetricSource::counter:
        item["counter"] = counted_event_name(metric.event);
        break;
      case MetricSource::valgrind:
        item["valgrind"] = counted_event_name(metric.event);
        break;
      default:
        break;
    }
    item["threshold"] = metric.threshold;
    item["tolerance"] = metric.tolerance;
    item["gate"] = metric.gating == Gating::gated;
    item["direction"] = to_name(metric.direction);
    item["estimator"] = to_name(metric.estimator);
    if (!metric.unit.empty()) {
      item["unit"] = metric.unit;
    }
    metrics[metric.name] = item;
  }
  json["metrics"] = metrics;
  return json.dump(2);
}

}  // namespace perfduel
