#include "report/trend_output.hpp"

#include <cmath>

#include <fmt/format.h>

#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

std::string format_value(double value, const std::optional<std::string>& unit) {
  return unit && !unit->empty() ? fmt::format("{:.6g} {}", value, *unit) : fmt::format("{:.6g}", value);
}

// A ratio that is infinite (a step over no noise) as null: JSON has no infinity.
nlohmann::json ratio_json(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json result_json(const trend::TrendResult& r, const trend::TrendWindows& windows) {
  nlohmann::json groups = nlohmann::json::array();
  for (const trend::Group& g : r.grouping.groups) {
    nlohmann::json group = {
        {"start", g.start},
        {"runs", g.runs},
        {"samples", g.stats.size},
        {"avg", g.stats.avg},
        {"stdev", g.stats.stdev},
        {"bits", g.bits},
        {"class", trend::to_string(g.change)},
        {"first", trend::level_at_start(g)},
        {"last", trend::level_at_end(g)},
        {"significance_bits", g.gain_bits ? nlohmann::json(*g.gain_bits) : nlohmann::json(nullptr)}};
    if (r.grouping.shape == trend::SegmentShape::line) {
      group["slope"] = g.slope;
    }
    if (g.evidence) {
      group["evidence"] = evidence_json(*g.evidence);
    }
    if (g.start < r.series.labels.size()) {
      group["first_run"] = r.series.labels[g.start];
    }
    if (const auto range = trend::group_commit_range(r.series, g)) {
      group["commits"] = {{"good", range->first}, {"bad", range->second}};
    }
    groups.push_back(std::move(group));
  }
  const auto& c = r.compliance;
  const auto optional = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json json{{"metric", r.series.name},
                      {"unit", r.series.unit ? nlohmann::json(*r.series.unit) : nlohmann::json(nullptr)},
                      {"direction", util::name_of(stats::k_direction_names, r.series.direction)},
                      {"runs", r.series.runs.size()},
                      {"method", util::name_of(trend::k_method_names, r.grouping.method)},
                      {"segments", util::name_of(trend::k_segment_shape_names, r.grouping.shape)},
                      {"unit_used", r.grouping.unit},
                      {"max_value", r.grouping.max_value},
                      {"total_bits", r.grouping.total_bits},
                      {"groups", std::move(groups)},
                      {"compliance",
                       {{"last_trend", c.last_trend},
                        {"runs", c.runs},
                        {"samples", c.samples},
                        {"last_class", trend::to_string(c.last_change)},
                        {"reference_trend", optional(c.reference_trend)},
                        {"trend_change", optional(c.trend_change)},
                        {"regressions", c.regressions},
                        {"progressions", c.progressions},
                        {"long", windows.long_window},
                        {"short", windows.short_window}}}};
  if (r.series.config) {
    json["config"] = *r.series.config;
  }
  return json;
}

// Where a regression group came in and how to find the commit: the range from the last run
// before it to its first run, and the bisect command over that range.
std::string bisect_hint(const trend::TrendSeries& series, const trend::Group& group) {
  const auto range = trend::group_commit_range(series, group);
  if (!range) {
    return "";
  }
  const std::string good = range->first.substr(0, 10);
  const std::string bad = range->second.substr(0, 10);
  if (range->first == range->second) {
    return fmt::format(
        "    runs {} and {} both measured commit {}: the change is not in the code (another "
        "machine, configuration or load?)\n",
        group.start - 1, group.start, good);
  }
  std::string hint =
      fmt::format("    commits {}..{}: {}\n", good, bad, bisect_command(series, group).value_or(""));
  if (!series.gate) {
    hint += fmt::format("    ({})\n", k_unknown_gate_note);
  }
  return hint;
}

}  // namespace

nlohmann::json evidence_json(const trend::ChangeEvidence& e) {
  return {{"p_value", e.p_value},
          {"step_in_noise", ratio_json(e.step_in_noise)},
          {"noise", e.noise},
          {"held_runs", e.held_runs}};
}

std::string evidence_text(const trend::ChangeEvidence& e) {
  const std::string p =
      e.p_value < 1e-4 ? fmt::format("p {:.0e}", e.p_value) : fmt::format("p {:.2g}", e.p_value);
  const std::string size = std::isfinite(e.step_in_noise) ? fmt::format("{:.1f}× the noise", e.step_in_noise)
                                                          : std::string("over no noise");
  return fmt::format("{}, {}, held {} run{}", p, size, e.held_runs, e.held_runs == 1 ? "" : "s");
}

std::string significance_text(const trend::Group& group) {
  std::string text = group.gain_bits ? fmt::format("{:.1f} bits", *group.gain_bits) : "";
  if (group.evidence) {
    text += (text.empty() ? "" : ", ") + evidence_text(*group.evidence);
  }
  return text;
}

std::optional<std::string> bisect_command(const trend::TrendSeries& series, const trend::Group& group) {
  const auto range = trend::group_commit_range(series, group);
  if (!range || range->first == range->second) {
    return std::nullopt;
  }
  return fmt::format("perfduel bisect --gate {} --good {} --bad {}",
                     series.gate ? util::quote_shell_word(*series.gate) : "NAME", range->first.substr(0, 10),
                     range->second.substr(0, 10));
}

std::string_view direction_text(stats::Direction direction) {
  return direction == stats::Direction::higher_is_better ? "higher is better" : "lower is better";
}

std::string format_trend_report(const std::vector<trend::TrendResult>& results,
                                const trend::TrendWindows& windows) {
  std::string text = fmt::format("{:<24} {:>16} {:>6} {:>13} {:>6} {:>6}  {}\n", "Metric", "Last trend",
                                 "Runs", "Trend change", "Regr.", "Progr.", "Last group");
  for (const trend::TrendResult& r : results) {
    const auto& c = r.compliance;
    const std::string change = c.trend_change ? util::format_percent(*c.trend_change) : "n/a";
    const std::string mark = c.last_change == trend::Change::regression ? "  <-- REGRESSION" : "";
    text += fmt::format("{:<24} {:>16} {:>6} {:>13} {:>6} {:>6}  {}{}\n", trend::series_title(r.series),
                        format_value(c.last_trend, r.series.unit), c.runs, change, c.regressions,
                        c.progressions, trend::to_string(c.last_change), mark);
  }
  for (const trend::TrendResult& r : results) {
    text += fmt::format(
        "\n{}: {} runs, {} group{}{}, {} ({}); trend change against the best trend {}..{} runs ago\n",
        trend::series_title(r.series), r.series.runs.size(), r.grouping.groups.size(),
        r.grouping.groups.size() == 1 ? "" : "s",
        r.grouping.shape == trend::SegmentShape::line ? " (lines: the series drifts)" : "",
        direction_text(r.series.direction), r.series.direction_source, windows.long_window,
        windows.short_window);
    for (std::size_t i = 1; i < r.grouping.groups.size(); ++i) {
      const trend::Group& g = r.grouping.groups[i];
      if (g.change == trend::Change::normal) {
        continue;
      }
      const double previous = trend::level_at_end(r.grouping.groups[i - 1]);
      const double now = trend::level_at_start(g);
      const bool recent = g.start + windows.short_window >= r.series.runs.size();
      text +=
          fmt::format("  {} {:<11} at run {}{}: {} -> {} ({}), {}{}\n",
                      g.change == trend::Change::regression ? "!" : "+", trend::to_string(g.change), g.start,
                      g.start < r.series.labels.size() ? fmt::format(" ({})", r.series.labels[g.start]) : "",
                      format_value(previous, r.series.unit), format_value(now, r.series.unit),
                      previous != 0.0 ? util::format_percent((now - previous) / previous) : "n/a",
                      significance_text(g), recent ? "  [in the short window]" : "");
      if (g.change == trend::Change::regression) {
        text += bisect_hint(r.series, g);
      }
    }
  }
  return text;
}

nlohmann::json trend_to_json(const std::vector<trend::TrendResult>& results,
                             const trend::TrendWindows& windows) {
  if (results.size() == 1) {
    return result_json(results.front(), windows);
  }
  nlohmann::json document;
  document["metrics"] = nlohmann::json::array();
  for (const trend::TrendResult& r : results) {
    document["metrics"].push_back(result_json(r, windows));
  }
  return document;
}

}  // namespace perfduel
