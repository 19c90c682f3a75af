#include "report/suite_view.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

// Changes first: the rank of a metric in a suite's report.
int rank(const MetricResult& result) {
  if (result.spec.gating != Gating::gated) {
    return 6;
  }
  switch (result.verdict) {
    case Verdict::regression:
      return 0;
    case Verdict::improvement:
      return 1;
    case Verdict::unstable:
      return 2;
    case Verdict::inconclusive:
    case Verdict::pending:
      return 3;
    case Verdict::no_change:
      return 5;
  }
  return 4;
}

}  // namespace

bool is_suite(const Analysis& analysis) {
  return analysis.metrics.size() > k_suite_metrics;
}

std::vector<std::size_t> display_order(const Analysis& analysis) {
  std::vector<std::size_t> order(analysis.metrics.size());
  for (std::size_t m = 0; m < order.size(); ++m) {
    order[m] = m;
  }
  if (is_suite(analysis)) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return rank(analysis.metrics[a]) < rank(analysis.metrics[b]);
    });
  }
  return order;
}

bool is_unchanged(const MetricResult& result) {
  return result.spec.gating != Gating::gated || result.verdict == Verdict::no_change;
}

std::string gated_names(const Analysis& analysis, Verdict verdict) {
  std::string text;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated && result.verdict == verdict) {
      text += (text.empty() ? "" : ", ") + result.spec.name;
    }
  }
  return text;
}

std::string keep_name_end(const std::string& name, std::size_t limit) {
  if (name.size() <= limit) {
    return name;
  }
  std::size_t start = name.size() - limit;
  while (start < name.size() && (static_cast<unsigned char>(name[start]) & 0xC0U) == 0x80U) {
    ++start;
  }
  return "…" + name.substr(start);
}

std::string measurement_name(const std::string& name) {
  std::string text = name;
  for (char& c : text) {
    const bool kept = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '/' ||
                      c == '-' || c == ':';
    if (!kept) {
      c = '_';
    }
  }
  return text;
}

}  // namespace perfduel
