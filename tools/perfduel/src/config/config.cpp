#include "config/config.hpp"

#include <fmt/format.h>

#include "config/names.hpp"
#include "error.hpp"
#include "util/file.hpp"
#include "util/glob.hpp"

// What the configuration's types answer themselves, and reading a configuration file. The rest
// of the configuration lives beside this file, one job each: the keys (keys.cpp), the YAML
// reader (yaml_reader.cpp), parsing (parse.cpp), re-analysis (reanalysis.cpp) and the JSON
// output (json_output.cpp).

namespace perfduel {

bool is_benchmark_pattern(const MetricSpec& metric) {
  return (metric.source == MetricSource::google_benchmark || metric.source == MetricSource::catch2 ||
          metric.framework != BenchmarkFramework::none) &&
         util::is_glob(metric.benchmark);
}

bool zeros_allowed(const MetricSpec& metric) {
  if (metric.zeros) {
    return *metric.zeros == Zeros::allowed;
  }
  switch (metric.source) {
    case MetricSource::user_time:
    case MetricSource::system_time:
    case MetricSource::heap:  // a program may allocate nothing
      return true;
    case MetricSource::counter:
    case MetricSource::valgrind:
      return metric.event == CountedEvent::branch_misses || metric.event == CountedEvent::cache_misses ||
             is_allocation_event(metric.event);
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

Config load_config(const std::filesystem::path& path) {
  const auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the configuration file", path.string()));
  }
  return parse_config(*text, path.string());
}

const char* counted_event_name(CountedEvent event) {
  // The names are string literals, so the view's data is a C string.
  return util::name_of(config::k_counted_events, event).data();
}

}  // namespace perfduel
