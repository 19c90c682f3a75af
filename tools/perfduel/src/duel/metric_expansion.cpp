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
  MetricExpansion expansion;
  auto& expanded = expansion.metrics;  // in configuration order, each pattern where it stood
  for (const auto& pattern : metrics) {
    if (!is_benchmark_pattern(pattern)) {
      expanded.push_back(pattern);
      continue;
    }
    // A suite counted by Valgrind prints Google Benchmark's JSON, as it would uncounted.
    const MetricSource names_source = pattern.framework == BenchmarkFramework::google_benchmark
                                          ? MetricSource::google_benchmark
                                          : pattern.source;
    auto baseline = benchmark_names(names_source, baseline_output);
    auto candidate = benchmark_names(names_source, candidate_output);
    for (const auto* side : {&baseline, &candidate}) {
      if (!*side) {
        return ExpansionResult::failure(fmt::format("metric \"{}\": {} run: {}", pattern.name,
                                                    side == &baseline ? "baseline" : "candidate",
                                                    side->error()));
      }
    }
    std::vector<std::string> matched;
    for (const auto* names : {&*baseline, &*candidate}) {
      for (const auto& name : *names) {
        if (util::glob_match(pattern.benchmark, name) && !contains(matched, name)) {
          matched.push_back(name);
        }
      }
    }
    if (matched.empty()) {
      return ExpansionResult::failure(fmt::format("metric \"{}\": no benchmark matches \"{}\" (found: {})",
                                                  pattern.name, pattern.benchmark, list_names(*baseline)));
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
      const bool in_baseline = contains(*baseline, name);
      const bool in_candidate = contains(*candidate, name);
      const auto metric_name = expanded_metric_name(pattern.name, name);
      if (!(in_baseline && in_candidate)) {
        if (pattern.missing == MissingBenchmark::error) {
          return ExpansionResult::failure(fmt::format(
              "metric \"{}\": benchmark \"{}\" runs only in the {} (the pattern says missing: error)",
              pattern.name, name, in_baseline ? "baseline" : "candidate"));
        }
        (in_baseline ? expansion.changes.removed : expansion.changes.added).push_back(metric_name);
        continue;
      }
      const auto duplicate = [&](const MetricSpec& metric) { return metric.name == metric_name; };
      if (std::any_of(metrics.begin(), metrics.end(), duplicate) ||
          std::any_of(expanded.begin(), expanded.end(), duplicate)) {
        return ExpansionResult::failure(
            fmt::format("metric \"{}\": benchmark \"{}\" would be named \"{}\", which another metric has",
                        pattern.name, name, metric_name));
      }
      MetricSpec metric = pattern;
      metric.name = metric_name;
      metric.benchmark = name;
      expanded.push_back(std::move(metric));
    }
  }
  return expansion;
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

}  // namespace perfduel
