#include "run/metric_extractor.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run/catch2_results.hpp"
#include "run/gbench_results.hpp"
#include "stats/descriptive.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

using Value = util::Expected<double>;

// One run's readings of a suite's benchmark (its repetitions) as the run's value: their median,
// or with `repetitions: best` the fastest of them.
double combine_repetitions(const MetricSpec& metric, const std::vector<double>& values) {
  if (metric.repetitions == Repetitions::best) {
    return metric.direction == Direction::higher_is_better ? *std::max_element(values.begin(), values.end())
                                                           : *std::min_element(values.begin(), values.end());
  }
  return stats::median(values);
}

Value from_regex(const MetricSpec& metric, const std::regex& regex, const std::string& out) {
  std::smatch match;
  if (!std::regex_search(out, match, regex) || !match[1].matched) {
    return Value::failure(fmt::format("no match for regex \"{}\" in the output", metric.pattern));
  }
  auto value = util::parse_double(match[1].str());
  if (!value) {
    return Value::failure(
        fmt::format("regex \"{}\" captured \"{}\", which is not a number", metric.pattern, match[1].str()));
  }
  return value;
}

Value from_json_pointer(const MetricSpec& metric, const nlohmann::json& document) {
  const nlohmann::json::json_pointer pointer(metric.pattern);
  const nlohmann::json* found = nullptr;
  try {
    // contains() itself throws for some pointers, e.g. "/" (an empty token) into an array.
    if (document.contains(pointer)) {
      found = &document.at(pointer);
    }
  } catch (const nlohmann::json::exception&) {
    found = nullptr;
  }
  if (found == nullptr) {
    return Value::failure(fmt::format("the JSON output has nothing at {}", metric.pattern));
  }
  const auto& value = *found;
  if (!value.is_number()) {
    return Value::failure(
        fmt::format("the JSON output has {} at {}, not a number", value.dump(), metric.pattern));
  }
  return value.get<double>();
}

// Google Benchmark's entries (gbench_results.hpp) of the metric's benchmark. With
// --benchmark_repetitions the same name appears once per repetition; their median is taken so
// that one repetition's hiccup does not decide (or the best of them: combine_repetitions).
Value from_google_benchmark(const MetricSpec& metric, const GbenchResults& results) {
  std::vector<double> values;
  std::vector<std::string> names;
  for (const GbenchEntry& entry : results.entries) {
    const std::string& name = entry.name;
    if (name != metric.benchmark || entry.is_aggregate()) {
      // Aggregates (BM_x_mean, ...) are never picked, so they are not offered either.
      if (!entry.is_aggregate() && names.size() < 8 &&
          std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
      continue;
    }
    if (entry.error_occurred) {
      return Value::failure(fmt::format("benchmark \"{}\" reported an error: {}", name, entry.error_message));
    }
    const auto field = entry.numbers.find(metric.field);
    if (field == entry.numbers.end()) {
      return Value::failure(fmt::format("benchmark \"{}\" has no numeric field \"{}\"", name, metric.field));
    }
    double value = field->second;
    if (metric.field == "real_time" || metric.field == "cpu_time") {
      const auto seconds = entry.seconds_per_time_unit();
      if (!seconds) {
        return Value::failure(fmt::format("benchmark \"{}\" has time_unit \"{}\", expected ns, us, ms or s",
                                          name, entry.time_unit));
      }
      value *= *seconds;
    }
    values.push_back(value);
  }
  if (values.empty()) {
    std::string known;
    for (const auto& name : names) {
      known += (known.empty() ? "" : ", ") + name;
    }
    return Value::failure(
        fmt::format("no benchmark named \"{}\" in the output (found: {})", metric.benchmark, known));
  }
  return combine_repetitions(metric, values);
}

// Catch2's XML: the mean of the benchmark named like the metric's; a name found in several
// test cases gives their median (or best), as Google Benchmark's repetitions do.
Value from_catch2(const MetricSpec& metric, const std::vector<Catch2Benchmark>& benchmarks) {
  std::vector<double> values;
  std::string known;
  for (const auto& benchmark : benchmarks) {
    if (benchmark.name != metric.benchmark) {
      known += (known.empty() ? "" : ", ") + fmt::format("\"{}\"", benchmark.name);
      continue;
    }
    if (!benchmark.failure.empty()) {
      return Value::failure(
          fmt::format("Catch2 benchmark \"{}\" failed: {}", benchmark.name, benchmark.failure));
    }
    values.push_back(benchmark.mean_seconds);
  }
  if (values.empty()) {
    return Value::failure(fmt::format(
        "no Catch2 benchmark named \"{}\" in the output (found: {}); does the test spec select it?",
        metric.benchmark, known.empty() ? "none" : known));
  }
  return combine_repetitions(metric, values);
}

// A Valgrind count per iteration of one benchmark of a suite counted one benchmark at a time.
Value benchmark_count(const MetricSpec& metric, const RunResult& run) {
  if (const auto why = run.uncountable.find(metric.benchmark); why != run.uncountable.end()) {
    return Value::failure(fmt::format("benchmark \"{}\" {}", metric.benchmark, why->second));
  }
  const auto counts = run.simulated_benchmarks.find(metric.benchmark);
  if (counts == run.simulated_benchmarks.end()) {
    return Value::failure(fmt::format("the run counted no benchmark named \"{}\"", metric.benchmark));
  }
  const auto found = counts->second.find(metric.event);
  if (found == counts->second.end() && is_allocation_event(metric.event)) {
    return 0.0;  // counted, and no allocation marked (count/allocation_counts.hpp)
  }
  if (found == counts->second.end()) {
    return Value::failure(fmt::format("the run has no valgrind count of {} for benchmark \"{}\"",
                                      counted_event_name(metric.event), metric.benchmark));
  }
  return found->second;
}

// A hardware or Valgrind count of the run; missing only when the run was not made to count it.
Value counted_value(const MetricSpec& metric, const RunResult& run) {
  if (metric.framework != BenchmarkFramework::none) {
    return benchmark_count(metric, run);
  }
  const bool hardware = metric.source == MetricSource::counter;
  const bool heap = metric.source == MetricSource::heap;
  const auto& counts = hardware ? run.counters : heap ? run.heap : run.simulated;
  const auto found = counts.find(metric.event);
  if (found == counts.end()) {
    return Value::failure(fmt::format("the run has no {} count of {}",
                                      hardware ? "hardware"
                                      : heap   ? "heap"
                                               : "valgrind",
                                      counted_event_name(metric.event)));
  }
  return found->second;
}

// Whether a metric of `source` is read from the run's stdout.
bool reads_stdout(MetricSource source) {
  switch (source) {
    case MetricSource::regex:
    case MetricSource::json_pointer:
    case MetricSource::google_benchmark:
    case MetricSource::catch2:
      return true;
    default:
      return false;
  }
}

}  // namespace

MetricExtractor::MetricExtractor(std::span<const MetricSpec> metrics) : m_metrics(metrics) {
  for (const auto& metric : metrics) {
    if (metric.source == MetricSource::regex) {
      m_regexes.emplace_back(std::regex(metric.pattern, std::regex::ECMAScript | std::regex::multiline));
    } else {
      m_regexes.emplace_back();
    }
  }
}

namespace {

// A run's stdout, parsed as JSON, Google Benchmark's or Catch2's output on first need, once a run.
class ParsedOutput {
 public:
  explicit ParsedOutput(const std::string& out) : m_out(out) {}

  // `metric` (json_pointer or google_benchmark) from the JSON document.
  Value json_value(const MetricSpec& metric) {
    if (!m_document) {
      m_document = nlohmann::json::parse(m_out, nullptr, false);
    }
    if (m_document->is_discarded()) {
      const std::string first_line(util::trim(std::string_view(m_out).substr(0, m_out.find('\n'))));
      return Value::failure(fmt::format(
          "stdout is not valid JSON (starts with \"{}\"){}", first_line.substr(0, 40),
          metric.source == MetricSource::google_benchmark ? "; pass --benchmark_format=json to the benchmark"
                                                          : ""));
    }
    if (metric.source == MetricSource::json_pointer) {
      return from_json_pointer(metric, *m_document);
    }
    if (!m_gbench) {
      m_gbench = read_gbench_document(*m_document);
    }
    return m_gbench->fault == GbenchFault::none ? from_google_benchmark(metric, m_gbench->results)
                                                : Value::failure(m_gbench->error);
  }

  // `metric` (catch2) from Catch2's XML reporter output.
  Value catch2_value(const MetricSpec& metric) {
    if (!m_catch2) {
      m_catch2 = read_catch2_benchmarks(m_out);
    }
    return *m_catch2 ? from_catch2(metric, m_catch2->value()) : Value::failure(m_catch2->error());
  }

 private:
  const std::string& m_out;
  std::optional<nlohmann::json> m_document;
  std::optional<GbenchReading> m_gbench;
  std::optional<util::Expected<std::vector<Catch2Benchmark>>> m_catch2;
};

}  // namespace

util::Expected<std::vector<double>> MetricExtractor::extract(const RunResult& run) const {
  using Result = util::Expected<std::vector<double>>;
  std::vector<double> values;
  ParsedOutput output{run.out};
  const bool no_output = util::trim(run.out).empty();
  for (std::size_t i = 0; i < m_metrics.size(); ++i) {
    const auto& metric = m_metrics[i];
    if (no_output && reads_stdout(metric.source)) {
      return Result::failure(fmt::format(
          "metric \"{}\": the run printed nothing on stdout, where the metric is read", metric.name));
    }
    Value value = 0.0;
    switch (metric.source) {
      case MetricSource::wall_time:
        value = run.wall_seconds;
        break;
      case MetricSource::user_time:
        value = run.user_seconds;
        break;
      case MetricSource::system_time:
        value = run.system_seconds;
        break;
      case MetricSource::max_rss:
        value = run.max_rss_bytes;
        break;
      case MetricSource::binary_size:
        value = run.program_bytes;
        break;
      case MetricSource::counter:
      case MetricSource::valgrind:
      case MetricSource::heap:
        value = counted_value(metric, run);
        break;
      case MetricSource::regex:
        value = from_regex(metric, *m_regexes[i], run.out);
        break;
      case MetricSource::json_pointer:
      case MetricSource::google_benchmark:
        value = output.json_value(metric);
        break;
      case MetricSource::catch2:
        value = output.catch2_value(metric);
        break;
    }
    if (!value) {
      return Result::failure(fmt::format("metric \"{}\": {}", metric.name, value.error()));
    }
    values.push_back(*value);
  }
  return values;
}

}  // namespace perfduel
