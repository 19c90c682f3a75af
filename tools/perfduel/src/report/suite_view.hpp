#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "duel/analysis.hpp"

namespace perfduel {

// How the reports stay readable when a benchmark suite brings dozens of metrics.

// More metrics than this and a report is a suite's: changes first, unchanged ones folded.
constexpr std::size_t k_suite_metrics = 12;

// Whether `analysis` has more than k_suite_metrics metrics.
bool is_suite(const Analysis& analysis);

// The order in which to list `analysis.metrics` (indices): configuration order for a few
// metrics; for a suite, changes first: gated regressions, improvements, unstable and
// inconclusive ones, then gated no-change, then report-only metrics, each group in
// configuration order.
std::vector<std::size_t> display_order(const Analysis& analysis);

// Whether metric `result` belongs to the folded part of a suite's report: a gated metric with
// no change, or a report-only one.
bool is_unchanged(const MetricResult& result);

// The metric names of `verdict` among the gated metrics, comma-separated, e.g. the regressions
// that the headline names first; empty when there are none.
std::string gated_names(const Analysis& analysis, Verdict verdict);

// Metric `name` cut to about `limit` bytes at a UTF-8 boundary where it must fit a plot,
// keeping its end after "…": benchmark names differ at the end (BM_Sort/8, BM_Sort/16).
std::string keep_name_end(const std::string& name, std::size_t limit);

// `name` as a CDash measurement name: letters, digits and `_ . / - :` kept, every other
// character (space, <, >, &, ", ...) replaced by `_`, so Catch2 names such as "sort 64 <x>"
// stay valid inside <CTestMeasurement name="...">.
std::string measurement_name(const std::string& name);

}  // namespace perfduel
