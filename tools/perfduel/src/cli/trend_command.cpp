// `perfduel trend`: groups a history series into trends (jumpavg) and reports changes.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/history_options.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "history/provenance.hpp"
#include "history/store.hpp"
#include "machine/facts.hpp"
#include "report/html_trend.hpp"
#include "report/trend_output.hpp"
#include "trend/compliance.hpp"
#include "trend/jumpavg.hpp"
#include "trend/series_input.hpp"
#include "trend/svg_plot.hpp"
#include "util/file.hpp"
#include "util/parallel.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

struct TrendOptions {
  std::optional<std::string> db;
  std::optional<std::string> input;
  std::vector<std::string> metrics;
  std::optional<std::string> branch;
  std::optional<std::string> machine;  // id (or a prefix of it), or "this"
  std::optional<std::string> config;   // configuration hash (or a prefix of it)
  std::optional<double> unit;
  std::string method = "segments";
  std::string min_magnitude = "0%";
  DirectionFlags direction;
  bool samples = false;
  std::size_t long_window = 180;
  std::size_t short_window = 14;
  std::optional<std::string> json;
  std::optional<std::string> svg;
  std::optional<std::string> html;  // a directory
};

std::vector<TrendSeries> jobs_from_input(const TrendOptions& options) {
  auto series = trend::read_series(*options.input);
  if (!series) {
    throw Error(series.error());
  }
  TrendSeries job;
  job.name = options.metrics.empty() ? std::filesystem::path(*options.input).stem().string()
                                     : options.metrics.front();
  job.runs = std::move(series.value());
  if (const auto flag = direction_of(options.direction)) {
    job.direction = *flag;
    job.direction_source = "option";
  } else {
    job.direction_source = "default; --higher-is-better for throughput";
  }
  return {std::move(job)};
}

// What a series point was measured on or under: its machine id, or its configuration hash.
enum class PointKey { machine, config };

std::string key_of(const history::SeriesPoint& point, PointKey key) {
  return key == PointKey::machine ? point.machine_id : point.config_hash.value_or("none");
}

// The machines (or configurations) of `points`, "id (count)" each, in order of first appearance.
std::string key_list(const std::vector<history::SeriesPoint>& points, PointKey key) {
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
std::size_t distinct_count(const std::vector<history::SeriesPoint>& points, PointKey key) {
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
  void print() const {
    for (const auto& [text, metrics] : m_notes) {
      fmt::print(stderr, "perfduel: note: {} {} {}\n", fmt::join(metrics, ", "),
                 metrics.size() == 1 ? "was" : "were", text);
    }
  }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> m_notes;
};

// --machine keeps the points measured on one machine (its id, a prefix of it, or "this"),
// --config those measured under one gate configuration (its hash or a prefix). Without
// --machine, a series from several machines is trended as one but the user is told, since a
// step between two machines looks like a regression. Without --config, several gates'
// records of one metric are kept for `split_by_config`.
void keep_points(std::vector<history::SeriesPoint>& points, const std::string& metric, PointKey key,
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

// A metric's points as the series to trend: one, or, when they were measured under several
// gate configurations and --config chose none, one per configuration (records without one
// form their own), in order of first appearance. Different gates measure different programs:
// trended as one series, their levels would read as steps.
std::vector<std::vector<history::SeriesPoint>> split_by_config(std::vector<history::SeriesPoint> points,
                                                               const std::string& metric,
                                                               const std::optional<std::string>& config,
                                                               MixedNotes& notes) {
  if (config || distinct_count(points, PointKey::config) < 2) {
    return {std::move(points)};
  }
  notes.add(fmt::format("measured under several configurations: {}; trended one series each (--config "
                        "HASH trends one)",
                        key_list(points, PointKey::config)),
            metric);
  std::vector<std::string> order;
  std::vector<std::vector<history::SeriesPoint>> parts;
  for (auto& point : points) {
    const std::string key = key_of(point, PointKey::config);
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

// The series of `name` over `points`, its direction from the options or the records.
TrendSeries job_from_points(const std::string& name, const std::vector<history::SeriesPoint>& points,
                            const TrendOptions& options) {
  TrendSeries job;
  job.name = name;
  std::optional<std::string> stored_direction;
  for (const history::SeriesPoint& point : points) {
    const auto& m = point.measurement;
    if (options.samples && !m.samples.empty()) {
      job.runs.push_back(m.samples);
    } else {
      job.runs.push_back({m.value});
    }
    job.commits.push_back(point.commit);
    job.recorded_at.push_back(point.recorded_at);
    job.labels.push_back(
        fmt::format("{} {}", point.commit ? point.commit->substr(0, 10) : "-", point.recorded_at));
    if (m.unit) {
      job.unit = m.unit;
    }
    if (m.direction) {
      stored_direction = m.direction;
    }
  }
  if (const auto flag = direction_of(options.direction)) {
    job.direction = *flag;
    job.direction_source = "option";
  } else if (const auto recorded_direction =
                 util::value_of(stats::k_direction_names, stored_direction.value_or(""))) {
    job.direction = *recorded_direction;
    job.direction_source = "recorded";
  } else {
    job.direction_source = "default";
  }
  return job;
}

// `points` split by the branch and machine they were recorded on, in the order each first occurs.
std::vector<std::vector<history::SeriesPoint>> split_by_place(
    const std::vector<history::SeriesPoint>& points) {
  std::vector<std::pair<std::string, std::string>> order;
  std::vector<std::vector<history::SeriesPoint>> parts;
  for (const auto& point : points) {
    const std::pair<std::string, std::string> place{point.branch.value_or(""), point.machine_id};
    auto it = std::find(order.begin(), order.end(), place);
    if (it == order.end()) {
      order.push_back(place);
      parts.emplace_back();
      it = order.end() - 1;
    }
    parts[static_cast<std::size_t>(it - order.begin())].push_back(point);
  }
  return parts;
}

std::vector<TrendSeries> jobs_from_database(const TrendOptions& options, std::string& source) {
  auto opened = history::open_history_store(history::history_location(options.db), history::CreateFile::no);
  if (!opened) {
    throw Error(opened.error());
  }
  history::HistoryStore& store = *opened.value();
  const std::string database = store.display_name();
  source = database;
  auto recorded = store.metrics(options.branch);
  if (!recorded) {
    throw Error(recorded.error());
  }
  std::vector<std::string> names = options.metrics;
  if (names.empty()) {
    names = *recorded;
    if (names.empty()) {
      throw Error(fmt::format("{}: no measurements recorded{}", database,
                              options.branch ? fmt::format(" on branch {}", *options.branch) : ""));
    }
  }
  std::vector<TrendSeries> jobs;
  MixedNotes notes;
  for (const std::string& name : names) {
    if (std::find(recorded->begin(), recorded->end(), name) == recorded->end()) {
      const auto suggestion = util::closest_match(name, *recorded);
      throw Error(fmt::format("{}: no metric \"{}\"{}{}", database, name,
                              options.branch ? fmt::format(" on branch {}", *options.branch) : "",
                              suggestion ? fmt::format(" (did you mean \"{}\"?)", *suggestion) : ""));
    }
    auto points = store.series(name, options.branch);
    if (!points) {
      throw Error(points.error());
    }
    keep_points(points.value(), name, PointKey::machine, options.machine, database, notes);
    keep_points(points.value(), name, PointKey::config, options.config, database, notes);
    const auto parts = split_by_config(std::move(points.value()), name, options.config, notes);
    for (const auto& part : parts) {
      // The dashboard trends each branch and machine apart, and its filters choose among them.
      for (const auto& place :
           options.html ? split_by_place(part) : std::vector<std::vector<history::SeriesPoint>>{part}) {
        TrendSeries job = job_from_points(name, place, options);
        if (parts.size() > 1) {
          job.config = key_of(place.front(), PointKey::config).substr(0, 12);
        }
        if (options.html) {
          job.branch = place.front().branch.value_or("");
          job.machine = place.front().machine_id.substr(0, 12);
        }
        jobs.push_back(std::move(job));
      }
    }
  }
  notes.print();
  return jobs;
}

// The grouping `options` for a series in `direction`; throws on a bad --method, --unit or
// --min-magnitude.
trend::GroupingOptions grouping_options(const TrendOptions& options, stats::Direction direction) {
  trend::GroupingOptions grouping;
  grouping.direction = direction;
  grouping.unit = options.unit;
  const auto method = util::value_of(trend::k_method_names, options.method);
  if (!method) {
    throw Error(fmt::format("--method {}: expected segments or jumpavg", options.method));
  }
  grouping.method = *method;
  const auto magnitude = util::parse_fraction(options.min_magnitude);
  const bool bare = options.min_magnitude.find('%') == std::string::npos;
  if (!magnitude || !(*magnitude >= 0.0) || !std::isfinite(*magnitude) || (bare && *magnitude >= 1.0)) {
    throw Error(fmt::format("--min-magnitude {}: expected a relative size of 0 or more, such as 2%",
                            options.min_magnitude));
  }
  grouping.min_magnitude = *magnitude;
  if (options.unit && grouping.method != trend::Method::jumpavg) {
    throw Error("--unit is the resolution of jumpavg's bit counting: give it with --method jumpavg");
  }
  if (grouping.min_magnitude > 0.0 && grouping.method == trend::Method::jumpavg) {
    throw Error(
        "--min-magnitude applies to --method segments (jumpavg's groups are the reference's, exactly)");
  }
  return grouping;
}

TrendResult analyse(TrendSeries job, const TrendOptions& options) {
  auto grouping = trend::group_runs(job.runs, grouping_options(options, job.direction));
  if (!grouping) {
    throw Error(fmt::format("{}: {}", series_title(job), grouping.error()));
  }
  auto summary = trend::compliance(
      *grouping, trend::ComplianceOptions{options.long_window, options.short_window, job.direction});
  if (!summary) {
    throw Error(fmt::format("{}: {}", series_title(job), summary.error()));
  }
  return TrendResult{std::move(job), std::move(grouping.value()), *summary};
}

void write_file(const std::string& path, const std::string& content) {
  if (!util::write_file_atomically(path, content).empty()) {
    throw Error(fmt::format("{}: cannot write the file", path));
  }
}

// `path` for metric `name` when several metrics share one --svg option: "trend.svg" becomes
// "trend-wall_time.svg".
std::string per_metric_path(const std::string& path, const std::string& name) {
  const std::filesystem::path p(path);
  std::string safe;
  for (const char c : name) {
    safe += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.' ? c : '_';
  }
  return (p.parent_path() / (p.stem().string() + "-" + safe + p.extension().string())).string();
}

// Writes the dashboard `page` as `directory`/index.html, making the directory if need be.
void write_dashboard(const std::filesystem::path& directory, const HtmlPage& page) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) {
    throw Error(fmt::format("--html {}: cannot make the directory: {}", directory.string(), ec.message()));
  }
  const auto index = directory / "index.html";
  if (const auto error = util::write_file_atomically(index, render_html_page(page)); !error.empty()) {
    throw Error(fmt::format("--html {}: cannot write {}: {}", directory.string(), index.string(), error));
  }
}

int run_trend(const TrendOptions& options) {
  if (options.short_window == 0 || options.short_window >= options.long_window) {
    throw Error(fmt::format("--short ({}) must be at least 1 and less than --long ({})", options.short_window,
                            options.long_window));
  }
  if (options.unit && !(*options.unit > 0.0)) {
    throw Error(fmt::format("--unit {}: the unit must be a positive number", *options.unit));
  }
  grouping_options(options, stats::Direction::lower_is_better);  // checks the options before any work
  if (options.input && options.metrics.size() > 1) {
    throw Error("--input holds one series: give at most one --metric (it names the series)");
  }
  std::string source = options.input.value_or("");
  std::vector<TrendSeries> jobs =
      options.input ? jobs_from_input(options) : jobs_from_database(options, source);
  for (const TrendSeries& job : jobs) {
    if (job.runs.empty()) {
      throw Error(fmt::format("{}: the series is empty", options.input ? *options.input : job.name));
    }
  }
  // Series are grouped independently: one per CPU at a time (a dashboard holds hundreds).
  std::vector<TrendResult> results(jobs.size());
  util::parallel_for(jobs.size(), 0,
                     [&](std::size_t i) { results[i] = analyse(std::move(jobs[i]), options); });
  const TrendWindows windows{options.long_window, options.short_window};
  fmt::print("{}", format_trend_report(results, windows));
  if (options.json) {
    write_file(*options.json, trend_to_json(results, windows).dump(2) + "\n");
  }
  if (options.svg) {
    for (const TrendResult& r : results) {
      const std::string title = series_title(r.series);
      const trend::TrendPlot plot{fmt::format("{} ({})", title, direction_text(r.series.direction)),
                                  r.series.unit.value_or(r.series.name), r.series.runs, r.grouping};
      write_file(results.size() == 1 ? *options.svg : per_metric_path(*options.svg, title),
                 trend::render_trend_svg(plot));
    }
  }
  if (options.html) {
    write_dashboard(*options.html, trend_page(results, windows, source));
  }

  bool regression = false;
  for (const TrendResult& r : results) {
    regression = regression || r.compliance.last_change == trend::Change::regression;
  }
  return to_int(regression ? ExitCode::regression : ExitCode::pass);
}

}  // namespace

void add_trend_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<TrendOptions>(subcommand, exit_code, run_trend);
  auto* db = add_database_option(*command, options->db);
  auto* input =
      command
          ->add_option("--input", options->input,
                       "Series file instead of the database: CSV (one value per line) or a JSON array "
                       "of numbers and arrays of numbers (an array is a run kept in one group)")
          ->check(CLI::ExistingFile);
  input->excludes(db);
  command->add_option("--metric", options->metrics,
                      "Metric to analyse (repeatable; default: every recorded metric)");
  command->add_option("--branch", options->branch, "Only records of this branch")->excludes(input);
  command
      ->add_option("--machine", options->machine,
                   "Only records of this machine: its id as `perfduel record` prints it (a prefix is "
                   "enough), or `this`")
      ->excludes(input);
  command
      ->add_option("--config", options->config,
                   "Only records of this gate configuration: its hash as `perfduel record` prints it (a "
                   "prefix is enough; `none` for records without one)")
      ->excludes(input);
  command
      ->add_flag("--samples", options->samples,
                 "Trend each record's raw samples as a run instead of its median")
      ->excludes(input);
  command
      ->add_option(
          "--method", options->method,
          "Grouping: segments (levels, or lines for a drifting series, each cut paying for itself in "
          "bits; the default) or jumpavg (FD.io CSIT's bit-counting groups, exactly)")
      ->capture_default_str();
  command
      ->add_option("--min-magnitude", options->min_magnitude,
                   "Hide changes of group smaller than this relative step, such as 2% (segments only)")
      ->capture_default_str();
  command->add_option("--unit", options->unit,
                      "Resolution of the values for --method jumpavg (default: largest value / 8191)");
  add_direction_flags(*command, options->direction, "Higher values are better",
                      "Lower values are better (the default unless recorded otherwise)");
  command->add_option("--long", options->long_window, "Long window in runs for the trend change")
      ->capture_default_str();
  command->add_option("--short", options->short_window, "Short window in runs (trend change, anomaly counts)")
      ->capture_default_str();
  command->add_option("--json", options->json, "Write groups and compliance as JSON to this file");
  command->add_option("--svg", options->svg, "Write the trend plot as SVG to this file");
  command->add_option("--html", options->html,
                      "Write the history dashboard into this directory (index.html, self-contained): every "
                      "series with its groups, each branch and machine trended apart, filters, the bisect "
                      "command of each change");
  command->footer(exit_codes_help(k_trend_exit_code_table));
}

}  // namespace perfduel::cli
