#include "trend/history_trend.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/metric_units.hpp"
#include "error.hpp"
#include "history/store.hpp"
#include "machine/facts.hpp"
#include "util/parallel.hpp"
#include "util/text.hpp"

namespace perfduel::trend {

namespace {

using Points = std::vector<history::SeriesPoint>;

// What a series point was measured on or under: its machine id, or its configuration hash.
enum class PointKey { machine, config };

std::string key_of(const history::SeriesPoint& point, PointKey key) {
  return key == PointKey::machine ? point.machine_id : point.config_hash.value_or("none");
}

// The machines (or configurations) of `points`, "id (count)" each, in order of first appearance.
std::string key_list(const Points& points, PointKey key) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& point : points) {
    const std::string id = key_of(point, key);
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == id; });
    if (it == counts.end()) {
      counts.emplace_back(id, 1);
    } else {
      ++it->second;
    }
  }
  std::string text;
  for (const auto& [id, count] : counts) {
    text += fmt::format("{}{} ({} record{})", text.empty() ? "" : ", ", id, count, count == 1 ? "" : "s");
  }
  return text;
}

// How many machines (or gate configurations) `points` were measured on (or under); records
// without a configuration (plain --metric values) do not count as one.
std::size_t distinct_count(const Points& points, PointKey key) {
  std::set<std::string> distinct;
  for (const auto& point : points) {
    if (key == PointKey::machine || point.config_hash) {
      distinct.insert(key_of(point, key));
    }
  }
  return distinct.size();
}

// Notes on mixed series, one line for all the metrics with the same one: "max_rss, wall_time
// were measured on several machines: ...". Each entry is the note's text after the verb and the
// metrics it is about, in order of first appearance.
class MixedNotes {
 public:
  void add(const std::string& text, const std::string& metric) {
    auto it =
        std::find_if(m_notes.begin(), m_notes.end(), [&](const auto& note) { return note.first == text; });
    if (it == m_notes.end()) {
      m_notes.emplace_back(text, std::vector<std::string>{});
      it = m_notes.end() - 1;
    }
    it->second.push_back(metric);
  }
  std::vector<std::string> lines() const {
    std::vector<std::string> lines;
    lines.reserve(m_notes.size());
    for (const auto& [text, metrics] : m_notes) {
      lines.push_back(
          fmt::format("{} {} {}", fmt::join(metrics, ", "), metrics.size() == 1 ? "was" : "were", text));
    }
    return lines;
  }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> m_notes;
};

// --machine keeps the points measured on one machine (its id, a prefix of it, or "this"),
// --config those measured under one gate configuration (its hash or a prefix). Without
// --machine, a series from several machines is trended as one but the user is told, since a
// step between two machines looks like a regression. Without --config, several gates'
// records of one metric are kept for `split_by_config`.
void keep_points(Points& points, const std::string& metric, PointKey key,
                 const std::optional<std::string>& wanted_option, const std::string& database,
                 MixedNotes& notes) {
  const char* what = key == PointKey::machine ? "machine" : "configuration";
  const std::string all = key_list(points, key);
  if (!wanted_option) {
    if (key == PointKey::machine && distinct_count(points, key) > 1) {
      notes.add(fmt::format("measured on several machines: {}; --machine ID trends one", all), metric);
    }
    return;
  }
  const bool this_machine = key == PointKey::machine && *wanted_option == "this";
  const std::string wanted = this_machine ? machine_fingerprint(read_machine_facts()).id : *wanted_option;
  std::erase_if(points, [&](const auto& point) { return key_of(point, key).rfind(wanted, 0) != 0; });
  if (points.empty()) {
    throw Error(fmt::format("{}: no measurements of \"{}\" {} {} {}{} (recorded: {})", database, metric,
                            key == PointKey::machine ? "on" : "under", what, wanted,
                            this_machine ? " (this machine)" : "", all.empty() ? "none" : all));
  }
}

// `points` split by `key_of_point`, in the order each key first occurs.
template <typename Key>
std::vector<Points> split_points(Points points, Key key_of_point) {
  std::vector<decltype(key_of_point(points.front()))> order;
  std::vector<Points> parts;
  for (auto& point : points) {
    const auto key = key_of_point(point);
    auto it = std::find(order.begin(), order.end(), key);
    if (it == order.end()) {
      order.push_back(key);
      parts.emplace_back();
      it = order.end() - 1;
    }
    parts[static_cast<std::size_t>(it - order.begin())].push_back(std::move(point));
  }
  return parts;
}

// A metric's points as the series to trend: one, or, when they were measured under several
// gate configurations and --config chose none, one per configuration (records without one
// form their own), in order of first appearance. Different gates measure different programs:
// trended as one series, their levels would read as steps.
std::vector<Points> split_by_config(Points points, const std::string& metric,
                                    const std::optional<std::string>& config, MixedNotes& notes) {
  if (config || distinct_count(points, PointKey::config) < 2) {
    return {std::move(points)};
  }
  notes.add(fmt::format("measured under several configurations: {}; trended one series each (--config "
                        "HASH trends one)",
                        key_list(points, PointKey::config)),
            metric);
  return split_points(std::move(points), [](const auto& point) { return key_of(point, PointKey::config); });
}

// `points` split by the branch and machine they were recorded on, in the order each first occurs.
std::vector<Points> split_by_place(const Points& points) {
  return split_points(
      points, [](const auto& point) { return std::make_pair(point.branch.value_or(""), point.machine_id); });
}

// The series of `name` over `points`, its direction from the request or the records.
TrendSeries series_from_points(const std::string& name, const Points& points, const TrendRequest& request) {
  TrendSeries series;
  series.name = name;
  series.gate = request.gate;
  std::optional<std::string> stored_direction;
  for (const history::SeriesPoint& point : points) {
    const auto& m = point.measurement;
    if (request.samples && !m.samples.empty()) {
      series.runs.push_back(m.samples);
    } else {
      series.runs.push_back({m.value});
    }
    series.commits.push_back(point.commit);
    series.recorded_at.push_back(point.recorded_at);
    series.labels.push_back(
        fmt::format("{} {}", point.commit ? point.commit->substr(0, 10) : "-", point.recorded_at));
    if (m.unit) {
      series.unit = m.unit;
    }
    if (m.direction) {
      stored_direction = m.direction;
    }
  }
  if (request.direction) {
    series.direction = *request.direction;
    series.direction_source = "option";
  } else if (const auto recorded_direction =
                 util::value_of(stats::k_direction_names, stored_direction.value_or(""))) {
    series.direction = *recorded_direction;
    series.direction_source = "recorded";
  } else {
    series.direction_source = "default";
  }
  return series;
}

CollectedSeries series_from_input(const TrendRequest& request) {
  auto runs = read_series(*request.input);
  if (!runs) {
    throw Error(runs.error());
  }
  TrendSeries series;
  series.name = request.metrics.empty() ? std::filesystem::path(*request.input).stem().string()
                                        : request.metrics.front();
  series.gate = request.gate;
  series.runs = std::move(runs.value());
  if (request.direction) {
    series.direction = *request.direction;
    series.direction_source = "option";
  } else {
    series.direction_source = "default; --higher-is-better for throughput";
  }
  CollectedSeries collected;
  collected.series.push_back(std::move(series));
  collected.source = *request.input;
  return collected;
}

// The metrics `request` names, checked against those `recorded` in `database`, or all of them.
std::vector<std::string> requested_metrics(const TrendRequest& request,
                                           const std::vector<std::string>& recorded,
                                           const std::string& database) {
  const std::string on_branch = request.branch ? fmt::format(" on branch {}", *request.branch) : "";
  if (request.metrics.empty()) {
    if (recorded.empty()) {
      throw Error(fmt::format("{}: no measurements recorded{}", database, on_branch));
    }
    return recorded;
  }
  for (const std::string& name : request.metrics) {
    if (std::find(recorded.begin(), recorded.end(), name) == recorded.end()) {
      const auto suggestion = util::closest_match(name, recorded);
      throw Error(fmt::format("{}: no metric \"{}\"{}{}", database, name, on_branch,
                              suggestion ? fmt::format(" (did you mean \"{}\"?)", *suggestion) : ""));
    }
  }
  return request.metrics;
}

CollectedSeries series_from_history(const TrendRequest& request) {
  auto opened = history::open_history_store(request.database, history::CreateFile::no);
  if (!opened) {
    throw Error(opened.error());
  }
  history::HistoryStore& store = *opened.value();
  CollectedSeries collected;
  collected.source = store.display_name();
  const std::string& database = collected.source;
  auto recorded = store.metrics(request.branch);
  if (!recorded) {
    throw Error(recorded.error());
  }
  MixedNotes notes;
  for (const std::string& name : requested_metrics(request, *recorded, database)) {
    auto points = store.series(name, request.branch);
    if (!points) {
      throw Error(points.error());
    }
    keep_points(points.value(), name, PointKey::machine, request.machine, database, notes);
    keep_points(points.value(), name, PointKey::config, request.config, database, notes);
    const auto parts = split_by_config(std::move(points.value()), name, request.config, notes);
    const bool by_place = request.split == SplitByPlace::yes;
    for (const auto& part : parts) {
      for (const auto& place : by_place ? split_by_place(part) : std::vector<Points>{part}) {
        TrendSeries series = series_from_points(name, place, request);
        if (parts.size() > 1) {
          series.config = key_of(place.front(), PointKey::config).substr(0, 12);
        }
        if (by_place) {
          series.branch = place.front().branch.value_or("");
          series.machine = place.front().machine_id.substr(0, 12);
        }
        collected.series.push_back(std::move(series));
      }
    }
  }
  collected.notes = notes.lines();
  return collected;
}

TrendResult analyse(TrendSeries series, GroupingOptions grouping, const TrendWindows& windows) {
  grouping.direction = series.direction;
  grouping.counted = series.unit && is_count_unit(*series.unit);
  auto groups = group_runs(series.runs, grouping);
  if (!groups) {
    throw Error(fmt::format("{}: {}", series_title(series), groups.error()));
  }
  auto summary =
      compliance(*groups, ComplianceOptions{windows.long_window, windows.short_window, series.direction});
  if (!summary) {
    throw Error(fmt::format("{}: {}", series_title(series), summary.error()));
  }
  return TrendResult{std::move(series), std::move(groups.value()), *summary};
}

}  // namespace

CollectedSeries collect_series(const TrendRequest& request) {
  CollectedSeries collected = request.input ? series_from_input(request) : series_from_history(request);
  for (const TrendSeries& series : collected.series) {
    if (series.runs.empty()) {
      throw Error(fmt::format("{}: the series is empty", request.input ? *request.input : series.name));
    }
  }
  return collected;
}

std::vector<TrendResult> analyse_series(std::vector<TrendSeries> series, const GroupingOptions& grouping,
                                        const TrendWindows& windows) {
  // Series are grouped independently: one per CPU at a time (a dashboard holds hundreds).
  std::vector<TrendResult> results(series.size());
  util::parallel_for(series.size(), 0,
                     [&](std::size_t i) { results[i] = analyse(std::move(series[i]), grouping, windows); });
  return results;
}

const Group* newest_regression(const Grouping& grouping) {
  if (grouping.groups.size() < 2) {
    return nullptr;
  }
  const Group& last = grouping.groups.back();
  if (last.change != Change::regression || !last.evidence) {
    return nullptr;
  }
  const std::size_t held = last.evidence->held_runs;
  return held >= k_min_held_runs && held < k_min_held_runs + k_alert_runs ? &last : nullptr;
}

std::optional<TrendResult> gate_series_trend(history::HistoryStore& store, const std::string& metric,
                                             const std::optional<std::string>& branch,
                                             const std::string& machine_id,
                                             const std::optional<std::string>& config_hash) {
  auto points = store.series(metric, branch);
  if (!points) {
    throw Error(points.error());
  }
  std::erase_if(points.value(), [&](const history::SeriesPoint& point) {
    return point.machine_id != machine_id || point.config_hash != config_hash;
  });
  if (points->empty()) {
    return std::nullopt;
  }
  TrendRequest request;
  request.branch = branch;
  TrendSeries series = series_from_points(metric, *points, request);
  return analyse(std::move(series), GroupingOptions{}, TrendWindows{});
}

std::string series_title(const TrendSeries& series) {
  return series.config ? fmt::format("{}@{}", series.name, *series.config) : series.name;
}

std::optional<std::pair<std::string, std::string>> group_commit_range(const TrendSeries& series,
                                                                      const Group& group) {
  if (group.start == 0 || group.start >= series.commits.size()) {
    return std::nullopt;
  }
  const auto& before = series.commits[group.start - 1];
  const auto& first = series.commits[group.start];
  if (!before || !first || before->empty() || first->empty()) {
    return std::nullopt;
  }
  return std::make_pair(*before, *first);
}

}  // namespace perfduel::trend
