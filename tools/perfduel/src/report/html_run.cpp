#include "report/html_run.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/labels.hpp"
#include "report/units.hpp"
#include "report/where_view.hpp"
#include "report_format/json_report.hpp"
#include "report_format/saved_report.hpp"
#include "util/json_file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// A number, or null when it is not finite (JSON has no NaN).
nlohmann::json finite_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Each run arranged by round: [round][side] -> run.
struct RoundsOfRuns {
  std::vector<const RunRecord*> baseline;
  std::vector<const RunRecord*> candidate;
  std::vector<bool> warmup;
};

RoundsOfRuns rounds_of(const std::vector<RunRecord>& runs) {
  RoundsOfRuns rounds;
  for (const auto& run : runs) {
    if (run.round < 0) {
      continue;
    }
    const auto index = static_cast<std::size_t>(run.round);
    if (index >= rounds.warmup.size()) {
      rounds.baseline.resize(index + 1, nullptr);
      rounds.candidate.resize(index + 1, nullptr);
      rounds.warmup.resize(index + 1, false);
    }
    (run.side == Side::baseline ? rounds.baseline : rounds.candidate)[index] = &run;
    rounds.warmup[index] = rounds.warmup[index] || run.warmup;
  }
  return rounds;
}

// Per round the values of `name` of each side and their change in percent, and the largest
// value's magnitude (which picks the unit shown).
struct MetricSeries {
  nlohmann::json baseline = nlohmann::json::array();
  nlohmann::json candidate = nlohmann::json::array();
  nlohmann::json change = nlohmann::json::array();
  double magnitude = 0;
};

MetricSeries series_of(const SavedReport& report, const RoundsOfRuns& rounds, const std::string& name) {
  const auto value = [&](const RunRecord* run) {
    return run == nullptr ? std::numeric_limits<double>::quiet_NaN() : run_value(report, *run, name);
  };
  MetricSeries series;
  for (std::size_t r = 0; r < rounds.warmup.size(); ++r) {
    const double a = value(rounds.baseline[r]);
    const double b = value(rounds.candidate[r]);
    series.baseline.push_back(finite_or_null(a));
    series.candidate.push_back(finite_or_null(b));
    // Each round's change as the SVG draws it: candidate / baseline − 1, where both are positive.
    series.change.push_back(a > 0 && b > 0 && std::isfinite(a) && std::isfinite(b)
                                ? nlohmann::json(100.0 * (b / a - 1.0))
                                : nlohmann::json(nullptr));
    for (const double v : {a, b}) {
      if (std::isfinite(v)) {
        series.magnitude = std::max(series.magnitude, std::fabs(v));
      }
    }
  }
  return series;
}

// The metric's verdict as the duel's own table says it: an open one worse than its threshold is a
// likely regression, and a regression the sign test settled names it.
std::string verdict_text(const SavedMetric& metric) {
  std::string verdict = metric.verdict.value_or("?");
  if (metric.likely_regression && !metric.settled_by && (verdict == "inconclusive" || verdict == "pending")) {
    return "likely regression (open)";
  }
  if (metric.signs && metric.signs->shown_instead_of_interval) {
    const auto direction = util::value_of(stats::k_direction_names, metric.direction.value_or(""));
    verdict += fmt::format(
        " ({})", signs_test_text(metric.signs->beyond, metric.signs->rounds,
                                 direction.value_or(Direction::lower_is_better), metric.signs->by_more_than));
  }
  return verdict;
}

nlohmann::json metric_page_data(const SavedReport& report, const SavedMetric& metric,
                                const RoundsOfRuns& rounds) {
  const std::string name = metric.name.value_or("?");
  const std::string unit = metric.unit.value_or("");
  MetricSeries series = series_of(report, rounds, name);
  const DisplayUnit shown = display_unit(unit, series.magnitude);
  const auto number_or_null = [](const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  const auto median_text = [&unit](const std::optional<double>& value) {
    return value ? perfduel::format_value(*value, unit) : std::string("n/a");
  };
  return {{"name", name},
          {"unit", unit},
          {"shown_unit", shown.name},
          {"factor", shown.factor},
          {"direction", metric.direction.value_or("lower_is_better")},
          {"gated", metric.gated},
          {"verdict", verdict_text(metric)},
          {"change", number_or_null(metric.change)},
          {"change_text", metric.read_zero ? nlohmann::json(change_label(metric)) : nlohmann::json(nullptr)},
          {"ci", metric.ci ? nlohmann::json{metric.ci->lo, metric.ci->hi} : nlohmann::json(nullptr)},
          {"confidence", number_or_null(metric.confidence)},
          {"threshold", number_or_null(metric.threshold)},
          {"tolerance", number_or_null(metric.tolerance)},
          {"baseline_median", median_text(metric.baseline_median)},
          {"candidate_median", median_text(metric.candidate_median)},
          {"estimator", metric.estimator},
          {"rounds", metric.rounds},
          {"baseline", std::move(series.baseline)},
          {"candidate", std::move(series.candidate)},
          {"per_round", std::move(series.change)}};
}

// Whether the page says where `explanation` happened: its metric regressed, or likely did (as the
// Markdown comment shows them: gated or not).
bool shown_where(const SavedReport& report, const Explanation& explanation) {
  for (const auto& metric : report.metrics) {
    if (metric.name == explanation.metric &&
        (metric.verdict.value_or("") == "regression" || metric.likely_regression)) {
      return true;
    }
  }
  return false;
}

// One explanation as the page draws it: the head line and what stands instead of functions as the
// terminal says them, the functions that carry the change (none when they do not explain it), and
// the differential call tree as [name, parent, baseline, candidate] rows, for the icicle.
nlohmann::json explanation_page_data(const Explanation& explanation) {
  const Attribution& attribution = explanation.attribution;
  nlohmann::json functions = nlohmann::json::array();
  if (attribution.reading == ProfileReading::explained) {
    for (const auto& function : attribution.functions) {
      functions.push_back({{"name", function.name},
                           {"short", short_function_name(function.name)},
                           {"place", function_place(function)},
                           {"change", util::name_of(k_function_change_names, function.change)},
                           {"baseline", function.baseline},
                           {"candidate", function.candidate},
                           {"share", function.share}});
    }
  }
  nlohmann::json tree = nlohmann::json::array();
  // A count that does not explain the change names no function, in the table or the icicle.
  if (attribution.reading != ProfileReading::not_by_counts) {
    for (const auto& node : explanation.tree) {
      tree.push_back({node.name, node.parent, node.baseline, node.candidate});
    }
  }
  return {{"metric", explanation.metric},
          {"benchmark", explanation.benchmark},
          {"event", counted_event_word(explanation)},
          {"per", counted_per(explanation)},
          {"reading", util::name_of(k_reading_names, attribution.reading)},
          {"head", where_head(explanation)},
          {"instead", where_instead(explanation)},
          {"baseline_total", attribution.baseline_total},
          {"candidate_total", attribution.candidate_total},
          {"functions", std::move(functions)},
          {"tree", std::move(tree)}};
}

nlohmann::json gate_page_data(const GateResult& gate, nlohmann::json duel) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& metric : gate.metrics) {
    rows.push_back({{"metric", metric.metric},
                    {"change", metric.change},
                    {"interval", metric.interval},
                    {"verdict", metric.verdict}});
  }
  const bool decided =
      gate.verdict == "no-change" || gate.verdict == "improvement" || gate.verdict == "regression";
  return {{"name", gate.name},
          {"verdict", gate.verdict},
          {"reason", gate.reason},
          {"words", decided && !gate.identical ? std::string() : undecided_text(gate)},
          {"rounds", gate.verdict == "skipped" ? std::string("-") : std::to_string(gate.rounds)},
          {"time", gate.verdict == "skipped" ? std::string("-") : util::format_seconds(gate.seconds)},
          {"identical", gate.identical},
          {"rows", std::move(rows)},
          {"duel", std::move(duel)}};
}

nlohmann::json run_page_data(const std::vector<GateResult>& gates, std::vector<nlohmann::json> duels) {
  nlohmann::json items = nlohmann::json::array();
  for (std::size_t g = 0; g < gates.size(); ++g) {
    items.push_back(gate_page_data(gates[g], std::move(duels[g])));
  }
  return {{"headline", suite_headline(gates)},
          {"exit_code", suite_exit_code(gates)},
          {"generated", util::now_iso8601()},
          {"gates", std::move(items)}};
}

}  // namespace

nlohmann::json duel_page_data(const SavedReport& report) {
  const RoundsOfRuns rounds = rounds_of(report.runs);
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& metric : report.metrics) {
    // A max_rss below the driver's own peak measured nothing of the programs (a note says so).
    if (!metric.at_driver_floor) {
      metrics.push_back(metric_page_data(report, metric, rounds));
    }
  }
  nlohmann::json warmup = nlohmann::json::array();
  for (const bool w : rounds.warmup) {
    warmup.push_back(w);
  }
  nlohmann::json explanations = nlohmann::json::array();
  for (const auto& explanation : report.explanations) {
    if (shown_where(report, explanation)) {
      explanations.push_back(explanation_page_data(explanation));
    }
  }
  return {{"baseline", fmt::format("{}", fmt::join(report.baseline_command, " "))},
          {"candidate", fmt::format("{}", fmt::join(report.candidate_command, " "))},
          {"verdict", report.verdict.value_or("?")},
          {"end", report.end_name},
          {"error", report.failure.value_or("")},
          {"started", report.started},
          {"seconds", report.elapsed_seconds},
          {"measured_rounds", report.measured_rounds},
          {"warmup", std::move(warmup)},
          {"notes", report.notes},
          {"metrics", std::move(metrics)},
          {"explanations", std::move(explanations)}};
}

HtmlPage run_page(const std::vector<GateResult>& gates) {
  std::vector<nlohmann::json> duels;
  duels.reserve(gates.size());
  for (const auto& gate : gates) {
    duels.push_back(gate.report.empty() ? nlohmann::json(nullptr)
                                        : duel_page_data(load_report_lenient(gate.report)));
  }
  HtmlPage page;
  page.kind = PageKind::run;
  page.data = run_page_data(gates, std::move(duels));
  page.title = fmt::format("perfduel: {}", page.data["headline"].get<std::string>());
  return page;
}

HtmlPage duel_page(const SavedReport& report, const std::string& name) {
  const std::vector<GateResult> gates{gate_result(report, name, name)};
  std::vector<nlohmann::json> duels;
  duels.push_back(duel_page_data(report));
  HtmlPage page;
  page.kind = PageKind::run;
  page.data = run_page_data(gates, std::move(duels));
  page.title = fmt::format("perfduel: {}", name);
  return page;
}

}  // namespace perfduel
