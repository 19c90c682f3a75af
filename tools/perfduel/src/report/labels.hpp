#pragma once

#include <string>
#include <vector>

#include "duel/analysis.hpp"
#include "report_format/saved_report.hpp"

namespace perfduel {

// What each number of a report is. The baseline and candidate columns are each side's median,
// while the change comes from the paired rounds by the metric's estimator: +0.02 % beside
// 475.4 MB/s and 471.8 MB/s is no contradiction, but only a label can say so.

// The change column's header, naming the estimators of `analysis`'s metrics in configuration
// order: "change (mean)", or "change (mean, median)" when they differ.
std::string change_header(const Analysis& analysis);

// The lines under a table that say what its columns are: the medians, then how the change
// and its interval were estimated, one line per estimator in use (naming its metrics when
// there are several estimators), then the intervals' confidence levels: per gated metric (with
// the Bonferroni correction over them, `family_confidence` the configured level) and for the
// report-only metrics.
std::vector<std::string> column_legend(const Analysis& analysis, double family_confidence);

// A metric's verdict as the table and the plots show it: "regression", "no-change (info)" for
// a report-only metric, "n/a" for one without a ratio (values of zero: no verdict to speak of)
// unless it is a count of allocations from or to 0 (MetricResult::zero_side), which has one.
std::string verdict_label(const MetricResult& result);

// A metric's change as the table, the progress line and the charts show it: "+3.10 %", "n/a"
// without an estimate, or for a count from or to 0 its two sides, "0 → 3 allocs/iter".
std::string change_label(const MetricResult& result);

// The same for a metric of a saved report: "+3.10 %", "n/a" without a change, "0 → 3 allocs/iter".
std::string change_label(const SavedMetric& metric);

// The sign sequence's evidence for an interval column: "10 of 12 rounds > +2.00 %" (`beyond` of
// `rounds` worse than `bound`, a relative change, by `direction`).
std::string signs_text(std::size_t beyond, std::size_t rounds, Direction direction, double bound);

// An interval column's text of `ci`, a relative change: "[-1.00 %, +2.00 %]".
std::string interval_words(const stats::Interval& ci);

// The interval column of a regression the sign sequence settled before its interval showed it
// (shows_signs), which beside "regression" would read as a contradiction: the test that decided,
// by name, and its rounds: "sign test: 9 of 10 rounds > +2.00 %" (signs_text's arguments).
std::string signs_test_text(std::size_t beyond, std::size_t rounds, Direction direction, double bound);

// How `estimator` computes the change, short enough for a plot's subtitle:
// "mean of paired log-ratios", "median of paired ratios", "ratio of the best runs".
std::string estimator_phrase(Estimator estimator);

}  // namespace perfduel
