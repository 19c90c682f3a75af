#include "config/config.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "error.hpp"
#include "util/glob.hpp"
#include "util/name_table.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

const std::vector<std::string> k_top_level_keys{
    "baseline",    "candidate",  "metrics",        "confidence", "warmup",       "detect_warmup",
    "min_rounds",  "max_rounds", "max_seconds",    "timeout",    "cpus",         "order",
    "env_padding", "seed",       "stopping",       "correction", "inconclusive", "autocorrelation_limit",
    "min_batches", "best_of",    "stability_limit"};
const std::vector<std::string> k_command_keys{"command", "shell", "working_directory", "env"};
const std::vector<std::string> k_metric_keys{
    "threshold",    "tolerance",        "gate",  "direction", "estimator", "unit",    "regex",
    "json_pointer", "google_benchmark", "field", "catch2",    "missing",   "counter", "valgrind"};
const std::vector<std::string> k_builtin_metrics{"wall_time", "user_time", "system_time", "max_rss"};
constexpr util::NameTable<CountedEvent, 4> k_counted_events{{{CountedEvent::instructions, "instructions"},
                                                             {CountedEvent::cycles, "cycles"},
                                                             {CountedEvent::branch_misses, "branch-misses"},
                                                             {CountedEvent::cache_misses, "cache-misses"}}};
// The default tolerance of a counted metric (see read_metric).
constexpr double k_counted_tolerance = 0.001;
// Valgrind's cachegrind counts instructions and, with its cache simulation, estimates cycles.
constexpr util::NameTable<CountedEvent, 2> k_valgrind_events{
    {{CountedEvent::instructions, "instructions"}, {CountedEvent::cycles, "cycles"}}};

// One name table per enum, for reading the YAML and writing the effective configuration.
constexpr util::NameTable<Order, 2> k_order_names{{{Order::random, "random"}, {Order::abba, "abba"}}};
constexpr util::NameTable<MissingBenchmark, 2> k_missing_names{
    {{MissingBenchmark::report, "report"}, {MissingBenchmark::error, "error"}}};
constexpr util::NameTable<Stopping, 3> k_stopping_names{
    {{Stopping::hybrid, "hybrid"}, {Stopping::width, "width"}, {Stopping::anytime, "anytime"}}};
constexpr util::NameTable<Correction, 2> k_correction_names{
    {{Correction::bonferroni, "bonferroni"}, {Correction::holm, "holm"}}};
constexpr util::NameTable<InconclusivePolicy, 3> k_inconclusive_names{{{InconclusivePolicy::skip, "skip"},
                                                                       {InconclusivePolicy::fail, "fail"},
                                                                       {InconclusivePolicy::pass, "pass"}}};

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
      const auto name = key(item.first, where);
      if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) {
        continue;
      }
      const auto suggestion = util::closest_match(name, allowed);
      fail(item.first, suggestion
                           ? fmt::format("unknown key \"{}\" (did you mean \"{}\"?)", name, *suggestion)
                           : fmt::format("unknown key \"{}\" in {}", name, where));
    }
  }

  // The text of the mapping key `node` in `where`; YAML also allows a list or a mapping as a key.
  std::string key(const YAML::Node& node, const std::string& where) const {
    if (!node.IsScalar()) {
      fail(node, fmt::format("a key in {} must be a plain name, not a list or mapping", where));
    }
    return node.Scalar();
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

  template <typename Enum, std::size_t N>
  Enum choice(const YAML::Node& node, const std::string& key, const util::NameTable<Enum, N>& names) const {
    const auto text = scalar(node, key);
    if (const auto value = util::value_of(names, text)) {
      return *value;
    }
    fail(node, fmt::format("\"{}\" must be one of {}, not \"{}\"", key, util::names_of(names), text));
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
      command.environment[reader.key(item.first, "\"env\"")] = reader.scalar(item.second, "env");
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

// Where the metric's value comes from (regex, json_pointer, google_benchmark and its field);
// returns how many sources `node` names.
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
      nlohmann::json::json_pointer check(metric.pattern);
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
    metric.unit = "s";
    ++sources;
  }
  if (const auto counter = node["counter"]) {
    metric.source = MetricSource::counter;
    metric.event = reader.choice(counter, "counter", k_counted_events);
    ++sources;
  }
  if (const auto valgrind = node["valgrind"]) {
    metric.source = MetricSource::valgrind;
    metric.event = reader.choice(valgrind, "valgrind", k_valgrind_events);
    ++sources;
  }
  const bool suite_source =
      metric.source == MetricSource::google_benchmark || metric.source == MetricSource::catch2;
  if (const auto field = node["field"]) {
    if (!suite_source) {
      reader.fail(field, "\"field\" only applies with \"google_benchmark\" or \"catch2\"");
    }
    metric.field = reader.scalar(field, "field");
    if (metric.source == MetricSource::catch2 && metric.field != "mean") {
      reader.fail(field,
                  fmt::format("\"field\" of a Catch2 benchmark must be mean, not \"{}\"", metric.field));
    }
  }
  if (const auto missing = node["missing"]) {
    if (!suite_source) {
      reader.fail(missing, "\"missing\" only applies with \"google_benchmark\" or \"catch2\"");
    }
    metric.missing = reader.choice(missing, "missing", k_missing_names);
  }
  return sources;
}

// The gate and estimator settings of a metric.
void read_metric_settings(const Reader& reader, const YAML::Node& node, MetricSpec& metric) {
  if (node["threshold"]) {
    metric.threshold = reader.fraction(node["threshold"], "threshold", 1e-6, 10.0);
  }
  if (node["tolerance"]) {
    metric.tolerance = reader.fraction(node["tolerance"], "tolerance", 0.0, 1.0);
  }
  if (node["gate"]) {
    metric.gating = reader.boolean(node["gate"], "gate") ? Gating::gated : Gating::report_only;
  }
  if (node["direction"]) {
    metric.direction = reader.choice(node["direction"], "direction", stats::k_direction_names);
  }
  if (node["estimator"]) {
    metric.estimator = reader.choice(node["estimator"], "estimator", stats::k_estimator_names);
  }
  if (node["unit"]) {
    metric.unit = reader.scalar(node["unit"], "unit");
  } else if (metric.source == MetricSource::google_benchmark &&
             (metric.field == "real_time" || metric.field == "cpu_time")) {
    metric.unit = "s";  // the extractor converts Google Benchmark's time_unit to seconds
  }
}

void read_metric(const Reader& reader, const YAML::Node& key, const YAML::Node& node, Config& config) {
  const auto name = reader.key(key, "\"metrics\"");
  const bool builtin =
      std::find(k_builtin_metrics.begin(), k_builtin_metrics.end(), name) != k_builtin_metrics.end();
  MetricSpec& metric = metric_entry(reader, key, config, builtin);
  if (node.IsNull()) {
    if (!builtin) {
      reader.fail(key, fmt::format("metric \"{}\" needs a source: regex, json_pointer, google_benchmark, "
                                   "catch2, counter or valgrind",
                                   name));
    }
    return;
  }
  reader.check_keys(node, k_metric_keys, fmt::format("metric \"{}\"", name));
  const int sources = read_source(reader, node, metric);
  if (builtin && sources > 0) {
    reader.fail(key, fmt::format("\"{}\" is a built-in metric and takes no source; pick another name", name));
  }
  if (!builtin && sources != 1) {
    reader.fail(key, fmt::format("metric \"{}\" needs exactly one source: regex, json_pointer, "
                                 "google_benchmark, catch2, counter or valgrind",
                                 name));
  }
  if (metric.source == MetricSource::counter || metric.source == MetricSource::valgrind) {
    // A count is the same on every run, so its interval is a point and any difference at all
    // is certain; the program's path and environment alone move a count by a few
    // instructions (12 in 11.8 million for a longer directory name). Differences below 0.1 %
    // are no change unless the configuration says otherwise.
    metric.tolerance = k_counted_tolerance;
  }
  read_metric_settings(reader, node, metric);
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

// Confidence, warm-up and the budget of rounds and seconds.
void read_sampling(const Reader& reader, const YAML::Node& root, Config& config) {
  if (const auto node = root["confidence"]) {
    config.confidence = reader.fraction(node, "confidence", 0.5, 0.9999);
  }
  if (const auto node = root["warmup"]) {
    config.warmup = reader.integer(node, "warmup", 0);
  }
  if (const auto node = root["detect_warmup"]) {
    config.detect_warmup = reader.boolean(node, "detect_warmup");
  }
  if (const auto node = root["env_padding"]) {
    config.env_padding = reader.boolean(node, "env_padding");
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
}

// Where and in which order the runs happen: CPUs, order, seed.
void read_scheduling(const Reader& reader, const YAML::Node& root, Config& config) {
  if (const auto node = root["cpus"]) {
    std::string text;
    if (node.IsSequence()) {
      for (const auto& cpu : node) {
        text += (text.empty() ? "" : ",") + reader.scalar(cpu, "cpus");
      }
    } else {
      text = reader.scalar(node, "cpus");
    }
    if (text == "auto" && !node.IsSequence()) {
      config.cpu_mode = CpuMode::automatic;
    } else if ((text == "none" && !node.IsSequence()) || (text.empty() && node.IsSequence())) {
      config.cpu_mode = CpuMode::none;  // an empty list, as before "none" existed, means no pinning
    } else {
      config.cpu_mode = CpuMode::list;
      config.cpus = reader.unwrap(node, "cpus", util::parse_cpu_list(text));
    }
  }
  if (const auto node = root["order"]) {
    config.order = reader.choice(node, "order", k_order_names);
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
}

// When to stop, the multiple-comparison correction, the inconclusive policy and the
// estimators' settings.
void read_decision(const Reader& reader, const YAML::Node& root, Config& config) {
  if (const auto node = root["stopping"]) {
    config.stopping = reader.choice(node, "stopping", k_stopping_names);
  }
  if (const auto node = root["correction"]) {
    config.correction = reader.choice(node, "correction", k_correction_names);
  }
  if (const auto node = root["inconclusive"]) {
    config.on_inconclusive = reader.choice(node, "inconclusive", k_inconclusive_names);
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
  read_sampling(reader, root, config);
  read_scheduling(reader, root, config);
  read_decision(reader, root, config);
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

bool is_benchmark_pattern(const MetricSpec& metric) {
  return (metric.source == MetricSource::google_benchmark || metric.source == MetricSource::catch2) &&
         util::is_glob(metric.benchmark);
}

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

namespace {

// YAML is printable Unicode text, and the configuration is copied into the JSON report, which
// must be UTF-8. yaml-cpp takes any bytes and turns a NUL into bytes that are not UTF-8.
void check_characters(const std::string& text, const std::string& origin) {
  const auto line_of = [&](std::size_t offset) {
    return std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n') + 1;
  };
  if (const auto offset = util::invalid_utf8_offset(text)) {
    throw Error(fmt::format("{}:{}: not valid UTF-8 (byte {}); save the file as UTF-8", origin,
                            line_of(*offset), *offset + 1));
  }
  const auto control = std::find_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == '\x7f';
  });
  if (control != text.end()) {
    const auto offset = static_cast<std::size_t>(control - text.begin());
    throw Error(
        fmt::format("{}:{}: control character 0x{:02X} (byte {}); YAML allows only tabs, line breaks and "
                    "printable text",
                    origin, line_of(offset), static_cast<unsigned char>(*control), offset + 1));
  }
}

}  // namespace

Config parse_config(const std::string& text, const std::string& origin) {
  Config config = default_config();
  config.origin = origin;
  const Reader reader(origin);
  check_characters(text, origin);
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

}  // namespace

const char* counted_event_name(CountedEvent event) {
  // The names are string literals, so the view's data is a C string.
  return util::name_of(k_counted_events, event).data();
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
  if (config.cpu_mode == CpuMode::list) {
    json["cpus"] = config.cpus;
  } else {
    json["cpus"] = config.cpu_mode == CpuMode::automatic ? "auto" : "none";
  }
  json["order"] = util::name_of(k_order_names, config.order);
  json["env_padding"] = config.env_padding;
  if (config.seed) {
    json["seed"] = *config.seed;
  }
  json["stopping"] = util::name_of(k_stopping_names, config.stopping);
  json["correction"] = util::name_of(k_correction_names, config.correction);
  json["inconclusive"] = util::name_of(k_inconclusive_names, config.on_inconclusive);
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
      case MetricSource::catch2:
        item["catch2"] = metric.benchmark;
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
    item["direction"] = util::name_of(stats::k_direction_names, metric.direction);
    item["estimator"] = util::name_of(stats::k_estimator_names, metric.estimator);
    if (!metric.unit.empty()) {
      item["unit"] = metric.unit;
    }
    if (is_benchmark_pattern(metric) && metric.missing == MissingBenchmark::error) {
      item["missing"] = "error";
    }
    metrics[metric.name] = item;
  }
  json["metrics"] = metrics;
  return json.dump(2);
}

}  // namespace perfduel
