#include "report/html_run.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/json_report.hpp"
#include "report/units.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// A number, or null when it is not finite (JSON has no NaN).
nlohmann::json finite_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Each run's values by metric name, arranged by round: [round][side] -> run.
struct RoundsOfRuns {
  std::vector<const nlohmann::ordered_json*> baseline;
  std::vector<const nlohmann::ordered_json*> candidate;
  std::vector<bool> warmup;
};

RoundsOfRuns rounds_of(const nlohmann::ordered_json& runs) {
  RoundsOfRuns rounds;
  for (const auto& run : runs) {
    const int round = run.value("round", -1);
    if (round < 0) {
      continue;
    }
    const auto index = static_cast<std::size_t>(round);
    if (index >= rounds.warmup.size()) {
      rounds.baseline.resize(index + 1, nullptr);
      rounds.candidate.resize(index + 1, nullptr);
      rounds.warmup.resize(index + 1, false);
    }
    (run.value("side", "") == "baseline" ? rounds.baseline : rounds.candidate)[index] = &run;
    rounds.warmup[index] = rounds.warmup[index] || run.value("warmup", false);
  }
  return rounds;
}

double run_value_of(const nlohmann::ordered_json* run, const std::string& metric) {
  if (run == nullptr || !run->contains("values")) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const auto& values = (*run)["values"];
  const auto it = values.find(metric);
  return it != values.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

nlohmann::json metric_page_data(const nlohmann::ordered_json& metric, const RoundsOfRuns& rounds) {
  const std::string name = metric.value("name", std::string("?"));
  const std::string unit = metric.value("unit", std::string());
  nlohmann::json baseline = nlohmann::json::array();
  nlohmann::json candidate = nlohmann::json::array();
  nlohmann::json change = nlohmann::json::array();
  double magnitude = 0;
  for (std::size_t r = 0; r < rounds.warmup.size(); ++r) {
    const double a = run_value_of(rounds.baseline[r], name);
    const double b = run_value_of(rounds.candidate[r], name);
    baseline.push_back(finite_or_null(a));
    candidate.push_back(finite_or_null(b));
    // Each round's change as the SVG draws it: candidate / baseline − 1, where both are positive.
    change.push_back(a > 0 && b > 0 && std::isfinite(a) && std::isfinite(b)
                         ? nlohmann::json(100.0 * (b / a - 1.0))
                         : nlohmann::json(nullptr));
    for (const double v : {a, b}) {
      if (std::isfinite(v)) {
        magnitude = std::max(magnitude, std::fabs(v));
      }
    }
  }
  const DisplayUnit shown = display_unit(unit, magnitude);
  const auto number_or_null = [&metric](const char* key) {
    return metric.contains(key) && metric[key].is_number() ? nlohmann::json(metric[key].get<double>())
                                                           : nlohmann::json(nullptr);
  };
  nlohmann::json ci = nullptr;
  if (metric.contains("ci") && metric["ci"].is_array() && metric["ci"].size() == 2) {
    ci = {metric["ci"][0].get<double>(), metric["ci"][1].get<double>()};
  }
  std::string verdict = metric.value("verdict", std::string("?"));
  if (metric.value("likely_regression", false) &&
      metric.value("settled_by", nlohmann::ordered_json()).is_null() &&
      (verdict == "inconclusive" || verdict == "pending")) {
    verdict = "likely regression (open)";  // as the duel's own table says
  }
  std::string estimator;
  if (metric.contains("estimator") && metric["estimator"].is_object()) {
    estimator = metric["estimator"].value("name", std::string());
  }
  const auto median_text = [&](const char* key) {
    return metric.contains(key) && metric[key].is_number()
               ? perfduel::format_value(metric[key].get<double>(), unit)
               : std::string("n/a");
  };
  return {{"name", name},
          {"unit", unit},
          {"shown_unit", shown.name},
          {"factor", shown.factor},
          {"direction", metric.value("direction", std::string("lower_is_better"))},
          {"gated", metric.value("gated", false)},
          {"verdict", verdict},
          {"change", number_or_null("change")},
          {"ci", ci},
          {"confidence", number_or_null("confidence")},
          {"threshold", number_or_null("threshold")},
          {"tolerance", number_or_null("tolerance")},
          {"baseline_median", median_text("baseline_median")},
          {"candidate_median", median_text("candidate_median")},
          {"estimator", estimator},
          {"rounds", metric.value("rounds", 0)},
          {"baseline", std::move(baseline)},
          {"candidate", std::move(candidate)},
          {"per_round", std::move(change)}};
}

std::string report_command_text(const nlohmann::ordered_json& report, const char* side) {
  if (!report.contains(side) || !report[side].is_object() || !report[side].contains("command")) {
    return "";
  }
  std::string text;
  for (const auto& word : report[side]["command"]) {
    text += (text.empty() ? "" : " ") + (word.is_string() ? word.get<std::string>() : word.dump());
  }
  return text;
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
          {"generated", now_iso8601()},
          {"gates", std::move(items)}};
}

}  // namespace

nlohmann::json duel_page_data(const nlohmann::ordered_json& report) {
  // Pointers into report["runs"]: the report outlives `rounds`.
  static const nlohmann::ordered_json k_no_runs = nlohmann::ordered_json::array();
  const RoundsOfRuns rounds = rounds_of(report.contains("runs") ? report["runs"] : k_no_runs);
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& metric : report.value("metrics", nlohmann::ordered_json::array())) {
    metrics.push_back(metric_page_data(metric, rounds));
  }
  nlohmann::json warmup = nlohmann::json::array();
  for (const bool w : rounds.warmup) {
    warmup.push_back(w);
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& note : report.value("notes", nlohmann::ordered_json::array())) {
    notes.push_back(note.is_string() ? note.get<std::string>() : note.dump());
  }
  return {{"baseline", report_command_text(report, "baseline")},
          {"candidate", report_command_text(report, "candidate")},
          {"verdict", report.value("verdict", std::string("?"))},
          {"end", report.value("end", std::string())},
          {"error", report.value("error", std::string())},
          {"started", report.value("started", std::string())},
          {"seconds", report.value("elapsed_seconds", 0.0)},
          {"measured_rounds", report.value("measured_rounds", 0)},
          {"warmup", std::move(warmup)},
          {"notes", std::move(notes)},
          {"metrics", std::move(metrics)}};
}

HtmlPage run_page(const std::vector<GateResult>& gates) {
  std::vector<nlohmann::json> duels;
  duels.reserve(gates.size());
  for (const auto& gate : gates) {
    duels.push_back(gate.report.empty() ? nlohmann::json(nullptr)
                                        : duel_page_data(read_report_json(gate.report)));
  }
  HtmlPage page;
  page.kind = PageKind::run;
  page.data = run_page_data(gates, std::move(duels));
  page.title = fmt::format("perfduel: {}", page.data["headline"].get<std::string>());
  return page;
}

HtmlPage duel_page(const nlohmann::ordered_json& report, const std::string& name) {
  const std::vector<GateResult> gates{gate_result_from_json(report, name, name)};
  std::vector<nlohmann::json> duels;
  duels.push_back(duel_page_data(report));
  HtmlPage page;
  page.kind = PageKind::run;
  page.data = run_page_data(gates, std::move(duels));
  page.title = fmt::format("perfduel: {}", name);
  return page;
}

}  // namespace perfduel
