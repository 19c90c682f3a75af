#include "duel/run_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "count/allocation_counts.hpp"
#include "error.hpp"
#include "run/perf_counters.hpp"
#include "run/program_path.hpp"

namespace perfduel {

RunPlan plan_runs(const Config& config) {
  RunPlan plan;
  plan.plain = false;
  for (const auto& metric : config.metrics) {
    if (metric.source == MetricSource::valgrind) {
      plan.valgrind = true;
      if (metric.event == CountedEvent::cycles) {
        plan.cache = CacheSimulation::on;
      }
      plan.framework = std::max(plan.framework, metric.framework);
      plan.allocations |= is_allocation_event(metric.event);
      continue;
    }
    if (metric.source == MetricSource::binary_size) {
      continue;  // read from the program's file, once per duel
    }
    plan.plain = true;
    plan.heap |= metric.source == MetricSource::heap;
    if (metric.source == MetricSource::counter &&
        std::find(plan.counters.begin(), plan.counters.end(), metric.event) == plan.counters.end()) {
      plan.counters.push_back(metric.event);
    }
  }
  return plan;
}

namespace {

// The first metric of `config` with `source` and `event`, for the message.
const MetricSpec& metric_counting(const Config& config, MetricSource source, CountedEvent event) {
  return *std::find_if(config.metrics.begin(), config.metrics.end(),
                       [&](const MetricSpec& m) { return m.source == source && m.event == event; });
}

}  // namespace

std::filesystem::path check_run_plan(const Config& config, const RunPlan& plan) {
  if (!plan.counters.empty()) {
    const CounterProbe probe = probe_counters(plan.counters);
    if (probe.failed) {
      const CountedEvent event = *probe.failed;
      const bool simulated = event == CountedEvent::instructions || event == CountedEvent::cycles;
      throw Error(fmt::format("{}: metric \"{}\": hardware counter \"{}\" is not available here: {}; {}",
                              config.origin, metric_counting(config, MetricSource::counter, event).name,
                              counted_event_name(event), probe.reason,
                              simulated ? fmt::format("use valgrind: {} instead", counted_event_name(event))
                                        : std::string("count it on a machine whose PMU is available")));
    }
  }
  if (!plan.valgrind) {
    return {};
  }
  const auto whole = std::find_if(config.metrics.begin(), config.metrics.end(), [](const MetricSpec& m) {
    return m.source == MetricSource::valgrind && m.framework == BenchmarkFramework::none;
  });
  if (plan.framework != BenchmarkFramework::none && whole != config.metrics.end()) {
    throw Error(
        fmt::format("{}: metric \"{}\": valgrind counts either each benchmark (with google_benchmark or "
                    "catch2) or the whole process, not both in one duel; drop one of them",
                    config.origin, whole->name));
  }
  const auto other = std::find_if(config.metrics.begin(), config.metrics.end(), [&](const MetricSpec& m) {
    return m.framework != BenchmarkFramework::none && m.framework != plan.framework;
  });
  if (other != config.metrics.end()) {
    throw Error(
        fmt::format("{}: metric \"{}\": valgrind counts the benchmarks of one framework in a duel "
                    "(one program), not both google_benchmark and catch2",
                    config.origin, other->name));
  }
  auto valgrind = find_valgrind();
  if (!valgrind) {
    const auto& metric = *std::find_if(config.metrics.begin(), config.metrics.end(), [](const MetricSpec& m) {
      return m.source == MetricSource::valgrind;
    });
    throw Error(fmt::format("{}: metric \"{}\": {}", config.origin, metric.name, valgrind.error()));
  }
  return std::move(valgrind).value();
}

std::filesystem::path find_allocation_counter(const Config& config, const RunPlan& plan) {
  if (!plan.allocations && !plan.heap) {
    return {};
  }
  std::string searched;
  auto found = find_helper(k_allocation_counter_library, searched);
  if (found.empty()) {
    const auto& metric = *std::find_if(config.metrics.begin(), config.metrics.end(),
                                       [](const MetricSpec& m) { return is_allocation_event(m.event); });
    throw Error(
        fmt::format("{}: metric \"{}\": the allocation counter {} is not installed (looked at {}); "
                    "build or install perfduel whole",
                    config.origin, metric.name, k_allocation_counter_library, searched));
  }
  return found;
}

}  // namespace perfduel
