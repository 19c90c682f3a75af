// `perfduel trend`: its options made into a trend::TrendRequest (trend/history_trend.hpp does
// the work), and the results written as the options ask.
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/history_options.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "history/store.hpp"
#include "report/html_trend.hpp"
#include "report/trend_output.hpp"
#include "report/trend_plot.hpp"
#include "trend/history_trend.hpp"
#include "trend/jumpavg.hpp"
#include "util/file.hpp"
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
  std::optional<std::string> gate;     // the add_perf_gate the records came from
  std::optional<double> unit;
  std::string method = "segments";
  std::optional<std::string> min_magnitude;  // none: trend::k_default_min_magnitude, or 0 if counted
  DirectionFlags direction;
  bool samples = false;
  std::size_t long_window = 180;
  std::size_t short_window = 14;
  std::optional<std::string> json;
  std::optional<std::string> svg;
  std::optional<std::string> html;  // a directory
};

// The grouping `options` ask for (each series sets its own direction); throws on a bad
// --method, --unit or --min-magnitude.
trend::GroupingOptions grouping_options(const TrendOptions& options) {
  trend::GroupingOptions grouping;
  grouping.unit = options.unit;
  const auto method = util::value_of(trend::k_method_names, options.method);
  if (!method) {
    throw Error(fmt::format("--method {}: expected segments or jumpavg", options.method));
  }
  grouping.method = *method;
  if (options.min_magnitude) {
    const std::string& text = *options.min_magnitude;
    const auto magnitude = util::parse_fraction(text);
    const bool bare = text.find('%') == std::string::npos;
    if (!magnitude || !(*magnitude >= 0.0) || !std::isfinite(*magnitude) || (bare && *magnitude >= 1.0)) {
      throw Error(fmt::format("--min-magnitude {}: expected a relative size of 0 or more, such as 2%", text));
    }
    grouping.min_magnitude = *magnitude;
  }
  if (options.unit && grouping.method != trend::Method::jumpavg) {
    throw Error("--unit is the resolution of jumpavg's bit counting: give it with --method jumpavg");
  }
  // The default magnitude is the segments' own: jumpavg keeps every group of the reference.
  if (grouping.min_magnitude.value_or(0.0) > 0.0 && grouping.method == trend::Method::jumpavg) {
    throw Error(
        "--min-magnitude applies to --method segments (jumpavg's groups are the reference's, exactly)");
  }
  return grouping;
}

trend::TrendRequest trend_request(const TrendOptions& options) {
  trend::TrendRequest request;
  request.database = options.input ? "" : history::history_location(options.db);
  request.input = options.input;
  request.metrics = options.metrics;
  request.branch = options.branch;
  request.machine = options.machine;
  request.config = options.config;
  request.gate = options.gate;
  request.direction = direction_of(options.direction);
  request.samples = options.samples;
  request.split = options.html ? trend::SplitByPlace::yes : trend::SplitByPlace::no;
  return request;
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
  const trend::GroupingOptions grouping = grouping_options(options);  // checked before any work
  if (options.input && options.metrics.size() > 1) {
    throw Error("--input holds one series: give at most one --metric (it names the series)");
  }
  auto collected = trend::collect_series(trend_request(options));
  for (const std::string& note : collected.notes) {
    fmt::print(stderr, "perfduel: note: {}\n", note);
  }
  const trend::TrendWindows windows{options.long_window, options.short_window};
  const std::vector<trend::TrendResult> results =
      trend::analyse_series(std::move(collected.series), grouping, windows);
  fmt::print("{}", format_trend_report(results, windows));
  if (options.json) {
    write_file(*options.json, trend_to_json(results, windows).dump(2) + "\n");
  }
  if (options.svg) {
    for (const trend::TrendResult& r : results) {
      const std::string title = trend::series_title(r.series);
      const TrendPlot plot{fmt::format("{} ({})", title, direction_text(r.series.direction)),
                           r.series.unit.value_or(r.series.name), r.series.runs, r.grouping};
      write_file(results.size() == 1 ? *options.svg : per_metric_path(*options.svg, title),
                 render_trend_svg(plot));
    }
  }
  if (options.html) {
    write_dashboard(*options.html, trend_page(results, windows, collected.source));
  }

  bool regression = false;
  for (const trend::TrendResult& r : results) {
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
  command->add_option("--gate", options->gate,
                      "The add_perf_gate NAME the records came from, for the `perfduel bisect --gate NAME` "
                      "command printed under each change (history keeps a gate's configuration hash, not "
                      "its name)");
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
  command->add_option("--min-magnitude", options->min_magnitude,
                      "Hide changes of group smaller than this relative step, such as 1% (segments only; 0 "
                      "shows every change) [default: 2%, Perfherder's alert threshold; 0 for a counted "
                      "series: a count unit such as insn/iter, or runs of one level that agree exactly]");
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
