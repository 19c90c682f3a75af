#include "report/html_trend.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "report/units.hpp"
#include "report_format/json_report.hpp"
#include "util/json_file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// A value to six significant digits, as the JSON's shortest form prints it: a third of the
// bytes of full precision, and finer than any benchmark's resolution.
nlohmann::json dashboard_value(double value) {
  if (!std::isfinite(value)) {
    return nullptr;
  }
  return std::stod(fmt::format("{:.6g}", value));
}

// The runs of every series, each (commit, time) once: a series refers to them by index.
class RunTable {
 public:
  int index_of(const std::string& commit, const std::string& time) {
    const auto [it, added] = m_index.try_emplace({commit, time}, static_cast<int>(m_commits.size()));
    if (added) {
      m_commits.push_back(commit);
      m_times.push_back(time);
    }
    return it->second;
  }
  nlohmann::json to_json() const { return {{"commit", m_commits}, {"time", m_times}}; }

 private:
  std::map<std::pair<std::string, std::string>, int> m_index;
  std::vector<std::string> m_commits;
  std::vector<std::string> m_times;
};

nlohmann::json dashboard_groups(const trend::TrendResult& r) {
  nlohmann::json groups = nlohmann::json::array();
  double previous = std::nan("");
  for (const trend::Group& g : r.grouping.groups) {
    const double first = trend::level_at_start(g);
    nlohmann::json group = {
        {"start", g.start},
        {"runs", g.runs},
        {"avg", dashboard_value(g.stats.avg)},
        {"first", dashboard_value(first)},
        {"last", dashboard_value(trend::level_at_end(g))},
        {"stdev", dashboard_value(g.stats.stdev)},
        {"change", trend::to_string(g.change)},
        {"bits", g.gain_bits ? dashboard_value(*g.gain_bits) : nlohmann::json(nullptr)},
        {"evidence", g.evidence ? nlohmann::json(evidence_text(*g.evidence)) : nlohmann::json(nullptr)},
        {"step", std::isfinite(previous) && previous != 0.0 ? dashboard_value((first - previous) / previous)
                                                            : nlohmann::json(nullptr)}};
    if (const auto range = trend::group_commit_range(r.series, g)) {
      group["good"] = range->first;
      group["bad"] = range->second;
    }
    if (const auto command = bisect_command(r.series, g)) {
      group["bisect"] = *command;
    }
    groups.push_back(std::move(group));
    previous = trend::level_at_end(g);
  }
  return groups;
}

// How many of `r`'s groups start with `change`: the changes its chart draws and lists.
std::size_t changes_of(const trend::TrendResult& r, trend::Change change) {
  return static_cast<std::size_t>(std::count_if(r.grouping.groups.begin(), r.grouping.groups.end(),
                                                [&](const trend::Group& g) { return g.change == change; }));
}

nlohmann::json dashboard_series(const trend::TrendResult& r, RunTable& runs) {
  const auto& series = r.series;
  nlohmann::json values = nlohmann::json::array();
  nlohmann::json run_deltas = nlohmann::json::array();
  int previous = 0;
  for (std::size_t i = 0; i < series.runs.size(); ++i) {
    values.push_back(dashboard_value(trend::summarize(series.runs[i]).avg));
    const std::string commit = i < series.commits.size() ? series.commits[i].value_or("") : "";
    const std::string time = i < series.recorded_at.size() ? series.recorded_at[i] : "";
    const int index = runs.index_of(commit, time);
    run_deltas.push_back(index - previous);
    previous = index;
  }
  const DisplayUnit shown = display_unit(series.unit.value_or(""), r.grouping.max_value);
  const auto& c = r.compliance;
  const auto optional = [](const std::optional<double>& v) { return v ? dashboard_value(*v) : nullptr; };
  return {{"title", trend::series_title(series)},
          {"metric", series.name},
          {"config", series.config.value_or("")},
          {"branch", series.branch.value_or("")},
          {"machine", series.machine.value_or("")},
          {"unit", series.unit.value_or("")},
          {"shown_unit", shown.name},
          {"factor", shown.factor},
          {"direction", std::string(direction_text(series.direction))},
          {"values", std::move(values)},
          {"runs", std::move(run_deltas)},
          {"groups", dashboard_groups(r)},
          {"last_trend", dashboard_value(c.last_trend)},
          {"last_runs", c.runs},
          {"trend_change", optional(c.trend_change)},
          {"regressions", c.regressions},
          {"progressions", c.progressions},
          {"regression_groups", changes_of(r, trend::Change::regression)},
          {"progression_groups", changes_of(r, trend::Change::progression)},
          {"last_change", trend::to_string(c.last_change)}};
}

}  // namespace

nlohmann::json trend_page_data(const std::vector<trend::TrendResult>& results,
                               const trend::TrendWindows& windows, const std::string& source) {
  RunTable runs;
  nlohmann::json series = nlohmann::json::array();
  bool gate_unknown = false;
  for (const trend::TrendResult& r : results) {
    series.push_back(dashboard_series(r, runs));
    gate_unknown = gate_unknown || !r.series.gate;
  }
  return {{"source", source},
          {"gate_note", gate_unknown ? std::string(k_unknown_gate_note) : ""},
          {"generated", util::now_iso8601()},
          {"long", windows.long_window},
          {"short", windows.short_window},
          {"run_table", runs.to_json()},
          {"series", std::move(series)}};
}

HtmlPage trend_page(const std::vector<trend::TrendResult>& results, const trend::TrendWindows& windows,
                    const std::string& source) {
  HtmlPage page;
  page.kind = PageKind::trend;
  page.data = trend_page_data(results, windows, source);
  std::size_t regressed = 0;
  for (const trend::TrendResult& r : results) {
    regressed += r.compliance.last_change == trend::Change::regression ? 1 : 0;
  }
  page.title = fmt::format("perfduel trend: {} series{}", results.size(),
                           regressed > 0 ? fmt::format(", {} regressed", regressed) : "");
  return page;
}

}  // namespace perfduel
