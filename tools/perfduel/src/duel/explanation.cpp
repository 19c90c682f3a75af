#include "duel/explanation.hpp"

namespace perfduel {

std::string profile_key(const MetricSpec& metric) {
  return metric.framework == BenchmarkFramework::none ? std::string() : metric.benchmark;
}

bool worth_explaining(const MetricResult& result) {
  return result.verdict == Verdict::regression || result.verdict == Verdict::improvement ||
         result.likely_regression;
}

std::vector<Explanation> explain_counted_metrics(const Analysis& analysis, const SideProfiles& profiles) {
  std::vector<Explanation> explanations;
  for (const MetricResult& result : analysis.metrics) {
    if (result.spec.source != MetricSource::valgrind || is_allocation_event(result.spec.event) ||
        !worth_explaining(result)) {
      continue;
    }
    const auto found = profiles.find(profile_key(result.spec));
    if (found == profiles.end() || found->second[0].functions.empty() || found->second[1].functions.empty()) {
      continue;
    }
    Explanation explanation;
    explanation.metric = result.spec.name;
    explanation.benchmark = found->first;
    explanation.event = result.spec.event;
    explanation.metric_change = result.change;
    explanation.attribution = attribute_change(found->second[0], found->second[1], result.spec.event);
    explanation.tree = differential_call_tree(found->second[0], found->second[1]);
    explanations.push_back(std::move(explanation));
  }
  return explanations;
}

}  // namespace perfduel
