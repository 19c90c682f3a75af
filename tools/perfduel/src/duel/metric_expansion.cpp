#include "duel/metric_expansion.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "run/benchmark_names.hpp"
#include "util/glob.hpp"

namespace perfduel {

namespace {

using ExpansionResult = util::Expected<MetricExpansion>;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether `metric` already reads benchmark `name` of `pattern`'s source and field.
bool reads(const MetricSpec& metric, const MetricSpec& pattern, const std::string& name) {
  return metric.source == pattern.source && metric.field == pattern.field && metric.benchmark == name;
}

std::string list_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < 8; ++i) {
    text += fmt::format("{}\"{}\"", text.empty() ? "" : ", ", names[i]);
  }
  if (names.size() > 8) {
    text += fmt::format(" and {} more", names.size() - 8);
  }
  return text.empty() ? "none" : text;
}

// The benchmarks a pattern found on each side.
struct PatternBenchmarks {
  std::vector<std::string> baseline;
  std::vector<std::string> candidate;
};

// What a pattern that matches no benchmark is: an error (a duel's output), or nothing (the
// history, which may hold no record of it).
enum class Unmatched { error, skip };

// Adds to `expansion` the metrics of `pattern`, one of `metrics`, over the benchmarks `found`
// on each side (see expand_metric_patterns); the error, or empty.
std::string expand_pattern(std::span<const MetricSpec> metrics, const MetricSpec& pattern,
                           const PatternBenchmarks& found, Unmatched unmatched, MetricExpansion& expansion) {
  auto& expanded = expansion.metrics;
  std::vector<std::string> matched;
  for (const auto* names : {&found.baseline, &found.candidate}) {
    for (const auto& name : *names) {
      if (util::glob_match(pattern.benchmark, name) && !contains(matched, name)) {
        matched.push_back(name);
      }
    }
  }
  if (matched.empty()) {
    return unmatched == Unmatched::skip
               ? std::string()
               : fmt::format("metric \"{}\": no benchmark matches \"{}\" (found: {})", pattern.name,
                             pattern.benchmark, list_names(found.baseline));
  }
  for (const auto& name : matched) {
    // An explicit metric anywhere in the configuration, or an earlier pattern, reads it.
    const auto claimed = [&](const MetricSpec& metric) {
      return !is_benchmark_pattern(metric) && reads(metric, pattern, name);
    };
    const auto earlier = [&](const MetricSpec& metric) { return reads(metric, pattern, name); };
    if (std::any_of(metrics.begin(), metrics.end(), claimed) ||
        std::any_of(expanded.begin(), expanded.end(), earlier)) {
      continue;
    }
    const bool in_baseline = contains(found.baseline, name);
    const bool in_candidate = contains(found.candidate, name);
    const auto metric_name = expanded_metric_name(pattern.name, name);
    if (!(in_baseline && in_candidate)) {
      if (pattern.missing == MissingBenchmark::error) {
        return fmt::format(
            "metric \"{}\": benchmark \"{}\" runs only in the {} (the pattern says missing: error)",
            pattern.name, name, in_baseline ? "baseline" : "candidate");
      }
      (in_baseline ? expansion.changes.removed : expansion.changes.added).push_back(metric_name);
      continue;
    }
    const auto duplicate = [&](const MetricSpec& metric) { return metric.name == metric_name; };
    if (std::any_of(metrics.begin(), metrics.end(), duplicate) ||
        std::any_of(expanded.begin(), expanded.end(), duplicate)) {
      return fmt::format("metric \"{}\": benchmark \"{}\" would be named \"{}\", which another metric has",
                         pattern.name, name, metric_name);
    }
    MetricSpec metric = pattern;
    metric.name = metric_name;
    metric.benchmark = name;
    metric.expanded_from = pattern.name;
    expanded.push_back(std::move(metric));
  }
  return {};
}

// The one expansion of the benchmark patterns of `metrics`, each over the benchmarks `found_by`
// finds for it on each side, in configuration order, each pattern where it stood.
template <typename FoundBy>
ExpansionResult expand_patterns_over(std::span<const MetricSpec> metrics, const FoundBy& found_by,
                                     Unmatched unmatched) {
  MetricExpansion expansion;
  for (const auto& pattern : metrics) {
    if (!is_benchmark_pattern(pattern)) {
      expansion.metrics.push_back(pattern);
      continue;
    }
    const util::Expected<PatternBenchmarks> found = found_by(pattern);
    if (!found) {
      return ExpansionResult::failure(found.error());
    }
    if (auto error = expand_pattern(metrics, pattern, *found, unmatched, expansion); !error.empty()) {
      return ExpansionResult::failure(std::move(error));
    }
  }
  return expansion;
}

}  // namespace

bool is_unmeasurable(const MetricSpec& metric, double baseline, double candidate) {
  const bool time = metric.source == MetricSource::google_benchmark &&
                    (metric.field == "real_time" || metric.field == "cpu_time");
  return time && baseline < k_unmeasurable_seconds && candidate < k_unmeasurable_seconds;
}

bool has_metric_patterns(std::span<const MetricSpec> metrics) {
  return std::any_of(metrics.begin(), metrics.end(), is_benchmark_pattern);
}

std::string expanded_metric_name(const std::string& key, const std::string& benchmark) {
  return key + "/" + benchmark;
}

util::Expected<MetricExpansion> expand_metric_patterns(std::span<const MetricSpec> metrics,
                                                       const std::string& baseline_output,
                                                       const std::string& candidate_output) {
  return expand_patterns_over(
      metrics,
      [&](const MetricSpec& pattern) -> util::Expected<PatternBenchmarks> {
        // A suite counted by Valgrind prints its framework's output, as it would uncounted.
        MetricSource names_source = pattern.source;
        if (pattern.framework == BenchmarkFramework::google_benchmark) {
          names_source = MetricSource::google_benchmark;
        } else if (pattern.framework == BenchmarkFramework::catch2) {
          names_source = MetricSource::catch2;
        }
        auto baseline = benchmark_names(names_source, baseline_output);
        auto candidate = benchmark_names(names_source, candidate_output);
        for (const auto* side : {&baseline, &candidate}) {
          if (!*side) {
            return util::Expected<PatternBenchmarks>::failure(
                fmt::format("metric \"{}\": {} run: {}", pattern.name,
                            side == &baseline ? "baseline" : "candidate", side->error()));
          }
        }
        return PatternBenchmarks{std::move(baseline).value(), std::move(candidate).value()};
      },
      Unmatched::error);
}

util::Expected<std::vector<MetricSpec>> expand_recorded_patterns(std::span<const MetricSpec> metrics,
                                                                 const std::vector<std::string>& recorded) {
  auto expansion = expand_patterns_over(
      metrics,
      [&](const MetricSpec& pattern) -> util::Expected<PatternBenchmarks> {
        // A recorded "<key>/<benchmark>" of this pattern's key: the benchmark ran on both sides.
        const std::string prefix = expanded_metric_name(pattern.name, "");
        std::vector<std::string> benchmarks;
        for (const std::string& name : recorded) {
          if (name.starts_with(prefix) && name.size() > prefix.size()) {
            benchmarks.push_back(name.substr(prefix.size()));
          }
        }
        return PatternBenchmarks{benchmarks, benchmarks};
      },
      Unmatched::skip);
  if (!expansion) {
    return util::Expected<std::vector<MetricSpec>>::failure(expansion.error());
  }
  return std::move(expansion).value().metrics;
}

void set_aside_uncountable(MetricExpansion& expansion, const std::map<std::string, std::string>& baseline,
                           const std::map<std::string, std::string>& candidate) {
  std::erase_if(expansion.metrics, [&](const MetricSpec& metric) {
    if (metric.framework == BenchmarkFramework::none) {
      return false;
    }
    for (const auto* side : {&baseline, &candidate}) {
      if (const auto why = side->find(metric.benchmark); why != side->end()) {
        expansion.changes.uncountable[metric.name] = why->second;
        return true;
      }
    }
    return false;
  });
}

void set_aside_allocation_free(MetricExpansion& expansion,
                               const std::map<std::string, std::map<CountedEvent, double>>& baseline,
                               const std::map<std::string, std::map<CountedEvent, double>>& candidate) {
  const auto count = [](const auto& side, const MetricSpec& metric) {
    const auto benchmark = side.find(metric.benchmark);
    if (benchmark == side.end()) {
      return -1.0;
    }
    const auto event = benchmark->second.find(metric.event);
    return event == benchmark->second.end() ? 0.0 : event->second;  // none marked: none made
  };
  std::erase_if(expansion.metrics, [&](const MetricSpec& metric) {
    if (metric.framework == BenchmarkFramework::none || !is_allocation_event(metric.event) ||
        count(baseline, metric) != 0 || count(candidate, metric) != 0) {
      return false;
    }
    expansion.changes.uncountable[metric.name] = "allocates nothing per iteration on either side: no change";
    return true;
  });
}

}  // namespace perfduel
