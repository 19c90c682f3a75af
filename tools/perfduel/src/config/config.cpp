#include "config/config.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config/metric_units.hpp"
#include "error.hpp"
#include "util/glob.hpp"
#include "util/name_table.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

const std::vector<std::string> k_top_level_keys{
    "baseline",    "candidate",  "metrics",         "confidence", "warmup",       "detect_warmup",
    "min_rounds",  "max_rounds", "max_seconds",     "timeout",    "cpus",         "order",
    "env_padding", "seed",       "stopping",        "correction", "inconclusive", "autocorrelation_limit",
    "min_batches", "best_of",    "stability_limit", "retries"};
const std::vector<std::string> k_command_keys{"command", "shell", "working_directory", "env"};
const std::vector<std::string> k_metric_keys{
    "threshold",        "tolerance", "gate",   "direction", "estimator", "unit",     "regex", "json_pointer",
    "google_benchmark", "field",     "catch2", "missing",   "counter",   "valgrind", "zeros"};
const std::vector<std::string> k_builtin_metrics{"wall_time", "user_time", "system_time", "max_rss"};
constexpr util::NameTable<CountedEvent, 4> k_counted_events{{{CountedEvent::instructions, "instructions"},
                                                             {CountedEvent::cycles, "cycles"},
                                                             {CountedEvent::branch_misses, "branch-misses"},
                                                             {CountedEvent::cache_misses, "cache-misses"}}};
// The widest tolerance: 1000 %, as the widest threshold (a lower-is-better metric only above
// 100 %, see read_metric_settings).
constexpr double k_max_tolerance = 10.0;
// The default tolerance of a counted metric (see read_metric).
constexpr double k_counted_tolerance = 0.001;
// The default tolerance of a metric that is not counted, as a share of its threshold (see
// apply_default_tolerance).
constexpr double k_default_tolerance_share = 0.5;
// The widest default tolerance of a higher-is-better metric (a rate cannot fall by 100 %).
constexpr double k_widest_better_tolerance = 0.9;
// Valgrind's cachegrind counts instructions and, with its cache simulation, estimates cycles.
constexpr util::NameTable<CountedEvent, 2> k_valgrind_events{
    {{CountedEvent::instructions, "instructions"}, {CountedEvent::cycles, "cycles"}}};

// One name table per enum, for reading the YAML and writing the effective configuration.
constexpr util::NameTable<MissingBenchmark, 2> k_missing_names{
    {{MissingBenchmark::report, "report"}, {MissingBenchmark::error, "error"}}};
constexpr util::NameTable<Stopping, 3> k_stopping_names{
    {{Stopping::hybrid, "hybrid"}, {Stopping::width, "width"}, {Stopping::anytime, "anytime"}}};
constexpr util::NameTable<Correction, 2> k_correction_names{
    {{Correction::bonferroni, "bonferroni"}, {Correction::holm, "holm"}}};
constexpr util::NameTable<Zeros, 2> k_zeros_names{{{Zeros::allowed, "allowed"}, {Zeros::error, "error"}}};
constexpr util::NameTable<InconclusivePolicy, 3> k_inconclusive_names{{{InconclusivePolicy::skip, "skip"},
                                                                       {InconclusivePolicy::fail, "fail"},
                                                                       {InconclusivePolicy::pass, "pass"}}};

// What YAML makes of a plain (unquoted) value that starts with one of its indicators, for
// the characters a number or a name of ours may start with: "%5" is a directive, "*5" an alias,
// "&5" an anchor (and an empty value), "!5" a tag, "|5" and ">5" a block of text on the
// following lines; "@" and "`" are reserved. Some are errors in YAML, the others read as an
// empty value, and the message that follows is about a value the user never wrote.
constexpr std::array<std::pair<char, const char*>, 8> k_indicator_readings{{
    {'%', "a directive"},
    {'*', "an alias of an anchor"},
    {'&', "an anchor"},
    {'@', "a reserved indicator"},
    {'`', "a reserved indicator"},
    {'!', "a tag"},
    {'|', "the start of a literal block"},
    {'>', "the start of a folded block"},
}};

// `value` in quotes that YAML reads back as `value`.
std::string yaml_quoted(const std::string& value) {
  if (value.find_first_of("\"\\") == std::string::npos) {
    return fmt::format("\"{}\"", value);
  }
  if (value.find('\'') == std::string::npos) {
    return fmt::format("'{}'", value);
  }
  std::string escaped;
  for (const char c : value) {
    escaped += c == '"' || c == '\\' ? std::string{'\\', c} : std::string{c};
  }
  return fmt::format("\"{}\"", escaped);
}

struct QuotingHint {
  int column = 0;  // 0-based, of the indicator
  std::string message;
};

// Where the indicator may be: at the mark (a node's mark is its start), or up to it (a syntax
// error may be found further into the value: "| 5", "*,").
enum class IndicatorAt { mark, up_to_mark };

// The hint for a value on line `line` of `lines` (0-based) that starts with a YAML indicator
// at `column`, or before it (`where`): `value starting with "%" must be quoted (write
// threshold: "%5"; ...)`. Nothing when no plain value starts with an indicator there.
std::optional<QuotingHint> quoting_hint(const std::vector<std::string>& lines, int line, int column,
                                        IndicatorAt where) {
  if (line < 0 || static_cast<std::size_t>(line) >= lines.size() || column < 0) {
    return std::nullopt;
  }
  const std::string& text = lines[static_cast<std::size_t>(line)];
  const auto reading_of = [](char c) -> const char* {
    for (const auto& [indicator, reading] : k_indicator_readings) {
      if (c == indicator) {
        return reading;
      }
    }
    return nullptr;
  };
  // The character before the value: ':' or '-' in block context, '[', '{' or ',' in flow.
  const auto context_before = [&](std::size_t at) -> char {
    const auto before = text.find_last_not_of(" \t", at == 0 ? std::string::npos : at - 1);
    return at == 0 || before == std::string::npos ? '\0' : text[before];
  };
  const auto is_value_start = [&](std::size_t at) {
    const char before = context_before(at);
    return at < text.size() && reading_of(text[at]) != nullptr &&
           std::string_view(":-[{,").find(before) != std::string_view::npos && before != '\0';
  };
  auto start = std::min(static_cast<std::size_t>(column), text.size());
  while (!is_value_start(start)) {
    if (start == 0 || where == IndicatorAt::mark) {
      return std::nullopt;
    }
    --start;
  }
  const char before = context_before(start);
  // Inside a flow collection ("{unit: %}", "[a, %b]") the value ends at the next ',', ']' or '}'.
  int depth = 0;
  for (std::size_t i = 0; i < start; ++i) {
    depth += text[i] == '[' || text[i] == '{' ? 1 : text[i] == ']' || text[i] == '}' ? -1 : 0;
  }
  const bool flow = depth > 0;
  auto end = flow ? text.find_first_of(",]}", start) : text.find(" #", start);
  std::string value(
      util::trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
  std::string example = yaml_quoted(value);
  if (before == ':') {
    const auto key_end = text.rfind(':', start);
    const auto key_start = flow ? text.find_last_of("{,", key_end) + 1 : text.find_first_not_of(' ');
    example = fmt::format("{}: {}", util::trim(text.substr(key_start, key_end - key_start)), example);
  } else if (before == '-') {
    example = "- " + example;
  }
  return QuotingHint{
      static_cast<int>(start),
      fmt::format("value starting with \"{0}\" must be quoted (write {1}; YAML reads an unquoted "
                  "\"{0}\" as {2})",
                  text[start], example, reading_of(text[start]))};
}

// Reads one YAML document and reports problems as "<origin>:<line>: <message>".
class Reader {
 public:
  // `text` is the document, to quote a value in a hint (see quoting_hint).
  Reader(std::string origin, const std::string& text)
      : m_origin(std::move(origin)), m_lines(util::split_lines(text)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const auto mark = node.Mark();
    if (mark.is_null()) {
      throw Error(fmt::format("{}: {}", m_origin, message));
    }
    if (const auto quoting = hint(node)) {
      throw Error(
          fmt::format("{}:{}:{}: {}", m_origin, mark.line + 1, quoting->column + 1, quoting->message));
    }
    throw Error(fmt::format("{}:{}: {}", m_origin, mark.line + 1, message));
  }

  // The quoting hint for an empty value where the file has text: YAML took the text for an
  // indicator ("&5" is an anchor and no value).
  std::optional<QuotingHint> hint(const YAML::Node& node) const {
    const auto mark = node.Mark();
    if (mark.is_null() || !(node.IsNull() || (node.IsScalar() && node.Scalar().empty()))) {
      return std::nullopt;
    }
    return quoting_hint(m_lines, mark.line, mark.column, IndicatorAt::mark);
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
    check_decoded(node, "a key in " + where);
    return node.Scalar();
  }

  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) {
      fail(node, fmt::format("\"{}\" must be a single value", key));
    }
    if (node.Scalar().empty() && hint(node)) {
      fail(node, "");  // "!5", "|5": text the user wrote, read as an empty value
    }
    check_decoded(node, "\"" + key + "\"");
    return node.Scalar();
  }

  // The file is UTF-8 (check_characters), but yaml-cpp decodes some escapes of a double-quoted
  // value ("\_", "\N", "\L", "\P") to single bytes that are not: refused here, or the report
  // that copies the configuration could not be written.
  void check_decoded(const YAML::Node& node, const std::string& what) const {
    if (util::invalid_utf8_offset(node.Scalar())) {
      fail(node, fmt::format("{} is not UTF-8 once its escapes are decoded; write the character itself or "
                             "\\u followed by its code (\\u00A0 for \\_)",
                             what));
    }
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
  std::vector<std::string> m_lines;
};

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

// The YAML document `text`. Throws perfduel::Error "<origin>:<line>: malformed YAML: ...", or
// with the quoting hint when the error is at a value that starts with an indicator.
YAML::Node load_yaml(const std::string& text, const std::string& origin) {
  check_characters(text, origin);
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (const auto hint =
            quoting_hint(util::split_lines(text), e.mark.line, e.mark.column, IndicatorAt::up_to_mark)) {
      throw Error(fmt::format("{}:{}:{}: {}", origin, e.mark.line + 1, hint->column + 1, hint->message));
    }
    throw Error(fmt::format("{}:{}: malformed YAML: {}", origin, e.mark.line + 1, e.msg));
  }
}

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
    metric.unit = k_unit_seconds;
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

// The gate and estimator settings of a metric.
void read_metric_settings(const Reader& reader, const YAML::Node& node, MetricSpec& metric) {
  if (node["threshold"]) {
    metric.threshold = reader.fraction(node["threshold"], "threshold", 1e-6, 10.0);
  }
  if (node["tolerance"]) {
    // Above 100 % only for a lower-is-better metric ("fail only beyond 3× slower": 200 %); the
    // better side of such a band is out of reach, so only regressions beyond it are decided.
    metric.tolerance = reader.fraction(node["tolerance"], "tolerance", 0.0, k_max_tolerance);
  }
  if (node["gate"]) {
    metric.gating = reader.boolean(node["gate"], "gate") ? Gating::gated : Gating::report_only;
  }
  if (node["direction"]) {
    metric.direction = reader.choice(node["direction"], "direction", stats::k_direction_names);
  } else if (metric.source == MetricSource::google_benchmark &&
             (metric.field == "bytes_per_second" || metric.field == "items_per_second")) {
    metric.direction = Direction::higher_is_better;  // a rate: more per second is faster
  }
  if (metric.direction == Direction::higher_is_better && metric.tolerance >= 1.0) {
    const YAML::Node& where = node["tolerance"]   ? node["tolerance"]
                              : node["direction"] ? node["direction"]
                                                  : node;
    reader.fail(where,
                fmt::format("\"tolerance\" of {} needs a lower-is-better metric: a higher-is-better one "
                            "cannot fall by 100 % or more, so its gate could never fail",
                            util::format_percent(metric.tolerance).substr(1)));
  }
  if (node["estimator"]) {
    metric.estimator = reader.choice(node["estimator"], "estimator", stats::k_estimator_names);
  } else if (is_benchmark_pattern(metric)) {
    // A suite's benchmarks have heavy tails (a run's hiccup lands on one benchmark of many):
    // its trimmed mean passes an unchanged suite in a third fewer rounds at the same errors
    // (docs/validation.md, "Suites").
    metric.estimator = Estimator::trimmed;
  }
  if (node["zeros"]) {
    metric.zeros = reader.choice(node["zeros"], "zeros", k_zeros_names);
  }
  if (node["unit"]) {
    metric.unit = reader.scalar(node["unit"], "unit");
  } else if (metric.source == MetricSource::google_benchmark) {
    metric.unit = google_benchmark_unit(metric.field);
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
  if (const auto node = root["retries"]) {
    config.retries = reader.integer(node, "retries", 0);
    if (config.retries > k_max_retries) {
      reader.fail(node, fmt::format("\"retries\" must be at most {} (a benchmark that fails more often is "
                                    "broken, not flaky), not {}",
                                    k_max_retries, config.retries));
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
    const bool counted = metric.source == MetricSource::counter || metric.source == MetricSource::valgrind;
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

// A re-analysis (`perfduel analyze`) lays new decision settings over a report's configuration.
// What made the runs cannot change after the fact; the budgets only bounded the duel.

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
      return fmt::format("valgrind {}", util::name_of(k_counted_events, metric.event));
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
         given.field == saved.field &&
         (pattern ? util::glob_match(given.benchmark, saved.benchmark) : given.benchmark == saved.benchmark);
}

// Lays the settings of metric `key`'s `node` over the report's metric of that name, or over the
// metrics a benchmark pattern of that name was expanded to ("key/<benchmark>").
void overlay_metric(const Reader& reader, const YAML::Node& key, const YAML::Node& node, Config& config) {
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
  if (node.IsNull()) {
    return;
  }
  reader.check_keys(node, k_metric_keys, fmt::format("metric \"{}\"", name));
  for (MetricSpec* metric : targets) {
    MetricSpec given = *metric;
    if (read_source(reader, node, given) > 0 && !same_source(given, *metric)) {
      YAML::Node where = node;
      for (const char* source :
           {"regex", "json_pointer", "google_benchmark", "catch2", "counter", "valgrind", "field"}) {
        if (node[source]) {
          where = node[source];
          break;
        }
      }
      fail_fixed(reader, where, fmt::format("the source of metric \"{}\"", metric->name),
                 source_text(*metric));
    }
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

// See apply_reanalysis_settings.
std::vector<std::string> overlay_settings(const Reader& reader, const YAML::Node& root, Config& config) {
  if (root.IsNull()) {
    return {};
  }
  reader.check_keys(root, k_top_level_keys, "the configuration");
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
  Config given = config;
  read_sampling(reader, root, given);
  read_scheduling(reader, root, given);
  read_decision(reader, root, given);
  const auto check = [&](const char* key, bool changed, const std::string& report_value) {
    if (changed) {
      fail_fixed(reader, root[key], fmt::format("\"{}\"", key), report_value);
    }
  };
  check("warmup", given.warmup != config.warmup, fmt::format("{} warm-up rounds", config.warmup));
  check("order", given.order != config.order, std::string(util::name_of(k_order_names, config.order)));
  check("env_padding", given.env_padding != config.env_padding, config.env_padding ? "true" : "false");
  check("seed", given.seed != config.seed, config.seed ? std::to_string(*config.seed) : "no seed");
  check("cpus",
        given.cpu_mode != config.cpu_mode || (config.cpu_mode == CpuMode::list && given.cpus != config.cpus),
        config.cpu_mode == CpuMode::automatic ? "auto"
        : config.cpu_mode == CpuMode::none    ? "none"
                                              : fmt::format("{}", fmt::join(config.cpus, ",")));
  std::vector<std::string> ignored;
  for (const auto& [key, changed] : {std::pair{"max_rounds", given.max_rounds != config.max_rounds},
                                     std::pair{"max_seconds", given.max_seconds != config.max_seconds},
                                     std::pair{"timeout", given.run_timeout != config.run_timeout}}) {
    if (changed) {
      ignored.emplace_back(key);
    }
  }
  config.confidence = given.confidence;
  config.detect_warmup = given.detect_warmup;
  config.min_rounds = given.min_rounds;
  config.stopping = given.stopping;
  config.correction = given.correction;
  config.on_inconclusive = given.on_inconclusive;
  config.autocorrelation_limit = given.autocorrelation_limit;
  config.min_batches = given.min_batches;
  config.min_best_of = given.min_best_of;
  config.stability_limit = given.stability_limit;
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

// The built-in metrics with their own defaults, before any configuration is applied.
Config builtin_config() {
  Config config;
  for (const auto& name : k_builtin_metrics) {
    config.metrics.push_back(builtin_metric(name));
  }
  return config;
}

}  // namespace

bool is_benchmark_pattern(const MetricSpec& metric) {
  return (metric.source == MetricSource::google_benchmark || metric.source == MetricSource::catch2) &&
         util::is_glob(metric.benchmark);
}

bool zeros_allowed(const MetricSpec& metric) {
  if (metric.zeros) {
    return *metric.zeros == Zeros::allowed;
  }
  switch (metric.source) {
    case MetricSource::user_time:
    case MetricSource::system_time:
      return true;
    case MetricSource::counter:
    case MetricSource::valgrind:
      return metric.event == CountedEvent::branch_misses || metric.event == CountedEvent::cache_misses;
    default:
      return false;
  }
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
  Config config = builtin_config();
  apply_default_tolerance(YAML::Node(), config);
  return config;
}

Config parse_config(const std::string& text, const std::string& origin) {
  Config config = builtin_config();
  config.origin = origin;
  const Reader reader(origin, text);
  const YAML::Node root = load_yaml(text, origin);
  read_config(reader, root, config);
  apply_default_tolerance(root, config);
  return config;
}

std::vector<std::string> apply_reanalysis_settings(Config& config, const std::string& text,
                                                   const std::string& origin) {
  const Reader reader(origin, text);
  return overlay_settings(reader, load_yaml(text, origin), config);
}

void apply_reanalysis_setting(Config& config, const std::string& key, const std::string& metric,
                              const std::string& value, const std::string& origin) {
  // The setting as the one key of a configuration, read by the same code as a file.
  YAML::Node root(YAML::NodeType::Map);
  if (std::find(k_metric_keys.begin(), k_metric_keys.end(), key) != k_metric_keys.end()) {
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
  overlay_settings(Reader(origin, ""), root, config);
}

std::vector<std::string> settings_changes(const Config& before, const Config& after) {
  const auto percent = [](double fraction) { return fmt::format("{:g} %", 100 * fraction); };
  const auto yes_no = [](bool value) { return std::string(value ? "true" : "false"); };
  std::vector<std::string> changes;
  const auto add = [&](const std::string& key, const std::string& now, const std::string& was) {
    if (now != was) {
      changes.push_back(fmt::format("{} {} (was {})", key, now, was));
    }
  };
  add("confidence", percent(after.confidence), percent(before.confidence));
  add("min_rounds", std::to_string(after.min_rounds), std::to_string(before.min_rounds));
  add("detect_warmup", yes_no(after.detect_warmup), yes_no(before.detect_warmup));
  add("stopping", std::string(util::name_of(k_stopping_names, after.stopping)),
      std::string(util::name_of(k_stopping_names, before.stopping)));
  add("correction", std::string(util::name_of(k_correction_names, after.correction)),
      std::string(util::name_of(k_correction_names, before.correction)));
  add("inconclusive", std::string(util::name_of(k_inconclusive_names, after.on_inconclusive)),
      std::string(util::name_of(k_inconclusive_names, before.on_inconclusive)));
  add("autocorrelation_limit", fmt::format("{:g}", after.autocorrelation_limit),
      fmt::format("{:g}", before.autocorrelation_limit));
  add("min_batches", std::to_string(after.min_batches), std::to_string(before.min_batches));
  add("best_of", std::to_string(after.min_best_of), std::to_string(before.min_best_of));
  add("stability_limit", percent(after.stability_limit), percent(before.stability_limit));
  // Per metric, one line per distinct change with the metrics it applies to, so that a
  // threshold set on a suite of twenty benchmarks is one line.
  std::vector<std::pair<std::string, std::vector<std::string>>> metric_changes;
  const auto add_metric = [&](const std::string& name, const std::string& key, const std::string& now,
                              const std::string& was) {
    if (now == was) {
      return;
    }
    const auto text = fmt::format("{} {} (was {})", key, now, was);
    auto entry = std::find_if(metric_changes.begin(), metric_changes.end(),
                              [&](const auto& change) { return change.first == text; });
    if (entry == metric_changes.end()) {
      entry = metric_changes.insert(metric_changes.end(), {text, {}});
    }
    entry->second.push_back(name);
  };
  for (std::size_t m = 0; m < after.metrics.size() && m < before.metrics.size(); ++m) {
    const auto& now = after.metrics[m];
    const auto& was = before.metrics[m];
    add_metric(now.name, "threshold", percent(now.threshold), percent(was.threshold));
    add_metric(now.name, "tolerance", percent(now.tolerance), percent(was.tolerance));
    add_metric(now.name, "gate", yes_no(now.gating == Gating::gated), yes_no(was.gating == Gating::gated));
    add_metric(now.name, "direction", std::string(util::name_of(stats::k_direction_names, now.direction)),
               std::string(util::name_of(stats::k_direction_names, was.direction)));
    add_metric(now.name, "estimator", std::string(util::name_of(stats::k_estimator_names, now.estimator)),
               std::string(util::name_of(stats::k_estimator_names, was.estimator)));
    add_metric(now.name, "unit", fmt::format("\"{}\"", now.unit), fmt::format("\"{}\"", was.unit));
  }
  for (const auto& [text, names] : metric_changes) {
    changes.push_back(names.size() > 3 ? fmt::format("{} metrics: {}", names.size(), text)
                                       : fmt::format("{}: {}", fmt::join(names, ", "), text));
  }
  return changes;
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
  json["retries"] = config.retries;
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
    if (metric.zeros) {
      item["zeros"] = util::name_of(k_zeros_names, *metric.zeros);
    }
    metrics[metric.name] = item;
  }
  json["metrics"] = metrics;
  return json.dump(2);
}

}  // namespace perfduel
