// `perfduel trend` below its command line (trend/history_trend.hpp): a history's points made
// into series (by metric, configuration, branch and machine) and grouped; and what the trend's
// presentations say of them (report/trend_output, report/html_trend, report/trend_plot).
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "error.hpp"
#include "history/sqlite_store.hpp"
#include "machine/facts.hpp"
#include "report/html_trend.hpp"
#include "report/trend_output.hpp"
#include "report/trend_plot.hpp"
#include "trend/history_trend.hpp"

using namespace perfduel;
using trend::TrendResult;
using trend::TrendSeries;

namespace {

// A SQLite history in a fresh file under the system temp dir, removed at the end of the test.
class TrendHistory {
 public:
  TrendHistory() {
    std::random_device device;
    m_path = std::filesystem::temp_directory_path() / ("perfduel-trend-test-" + std::to_string(::getpid()) +
                                                       "-" + std::to_string(device()) + ".sqlite");
  }
  TrendHistory(const TrendHistory&) = delete;
  TrendHistory& operator=(const TrendHistory&) = delete;
  ~TrendHistory() {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(m_path.string() + suffix, ignored);
    }
  }

  // Records `value` of `metric` at commit `commit` on `host`, under configuration `config`.
  void record(const std::string& metric, double value, int commit, const std::string& host,
              const std::optional<std::string>& config) {
    auto store = history::SqliteStore::open(m_path, history::CreateFile::yes);
    REQUIRE(store);
    history::Record record;
    record.recorded_at = fmt::format("2026-11-01T00:{:02}:00Z", commit);
    record.commit = fmt::format("c{:02}", commit);
    record.branch = "main";
    record.machine = machine_fingerprint(host, "CPU", "6.1").description;
    record.machine_id = machine_fingerprint(host, "CPU", "6.1").id;
    record.source = "values";
    record.config_hash = config;
    history::Measurement m;
    m.metric = metric;
    m.value = value;
    m.samples = {value};
    record.measurements.push_back(m);
    REQUIRE(store.value().append(record));
  }

  std::string path() const { return m_path.string(); }

 private:
  std::filesystem::path m_path;
};

// A series of `values` at commits c00, c01, ... grouped by segments, lower is better.
TrendResult trended(const std::vector<double>& values, const std::optional<std::string>& gate) {
  TrendSeries series;
  series.name = "score";
  series.gate = gate;
  for (std::size_t i = 0; i < values.size(); ++i) {
    series.runs.push_back({values[i]});
    series.commits.emplace_back(fmt::format("c{:02}", i));
  }
  auto results = trend::analyse_series({series}, trend::GroupingOptions{}, trend::TrendWindows{});
  REQUIRE(results.size() == 1);
  return results.front();
}

// 20 runs at 100, then 20 at 130: one regression group, far from the last 14 runs.
std::vector<double> one_old_step() {
  std::vector<double> values(20, 100.0);
  values.insert(values.end(), 20, 130.0);
  return values;
}

}  // namespace

TEST_CASE("a history's points become series by configuration, with a note on mixed ones", "[trend]") {
  TrendHistory history;
  for (int i = 0; i < 6; ++i) {
    history.record("wall_time", 1.0 + 0.01 * i, i, i % 2 == 0 ? "a" : "b",
                   i < 3 ? "aaaa11112222" : "bbbb33334444");
  }
  trend::TrendRequest request;
  request.database = history.path();
  const auto collected = trend::collect_series(request);
  CHECK(collected.source == history.path());
  REQUIRE(collected.series.size() == 2);
  CHECK(trend::series_title(collected.series[0]) == "wall_time@aaaa11112222");
  CHECK(trend::series_title(collected.series[1]) == "wall_time@bbbb33334444");
  CHECK(collected.series[0].runs == trend::Series{{1.0}, {1.01}, {1.02}});
  CHECK(collected.series[0].commits.front() == "c00");
  CHECK(collected.series[0].direction_source == "default");
  REQUIRE(collected.notes.size() == 2);
  CHECK(collected.notes[0].rfind("wall_time was measured on several machines: ", 0) == 0);
  CHECK(collected.notes[1].rfind("wall_time was measured under several configurations: ", 0) == 0);

  // The dashboard's split: each machine apart too.
  request.split = trend::SplitByPlace::yes;
  request.config = "aaaa";
  request.direction = stats::Direction::higher_is_better;
  const auto by_place = trend::collect_series(request);
  REQUIRE(by_place.series.size() == 2);
  CHECK(by_place.series[0].branch == "main");
  CHECK(by_place.series[0].runs.size() == 2);  // commits 0 and 2 on machine a
  CHECK(by_place.series[1].runs.size() == 1);
  CHECK(by_place.series[0].direction_source == "option");

  request.metrics = {"wall_tim"};
  CHECK_THROWS_WITH(trend::collect_series(request),
                    history.path() + ": no metric \"wall_tim\" (did you mean \"wall_time\"?)");
  request.metrics = {};
  request.config = "cccc";
  CHECK_THROWS_WITH(trend::collect_series(request),
                    history.path() +
                        ": no measurements of \"wall_time\" under configuration cccc (recorded: "
                        "aaaa11112222 (3 records), bbbb33334444 (3 records))");
}

TEST_CASE("the bisect command under a change names the gate, or says what NAME is", "[trend]") {
  const TrendResult known = trended(one_old_step(), "sort speed");
  const trend::Group& step = known.grouping.groups.at(1);
  CHECK(bisect_command(known.series, step) == "perfduel bisect --gate 'sort speed' --good c19 --bad c20");
  const std::string report = format_trend_report({known}, trend::TrendWindows{});
  CHECK(report.find("    commits c19..c20: perfduel bisect --gate 'sort speed' --good c19 --bad c20\n") !=
        std::string::npos);
  CHECK(report.find("NAME") == std::string::npos);

  const TrendResult unknown = trended(one_old_step(), std::nullopt);
  CHECK(bisect_command(unknown.series, unknown.grouping.groups.at(1)) ==
        "perfduel bisect --gate NAME --good c19 --bad c20");
  CHECK(format_trend_report({unknown}, trend::TrendWindows{})
            .find("    commits c19..c20: perfduel bisect --gate NAME --good c19 --bad c20\n"
                  "    (NAME: the add_perf_gate whose reports were recorded; history keeps no gate names, "
                  "`perfduel trend --gate NAME` writes it in)\n") != std::string::npos);
  const auto page = trend_page_data({unknown}, trend::TrendWindows{}, "h.sqlite");
  CHECK(page["gate_note"] == std::string(k_unknown_gate_note));
  CHECK(page["series"][0]["groups"][1]["bisect"] == "perfduel bisect --gate NAME --good c19 --bad c20");
  CHECK(trend_page_data({known}, trend::TrendWindows{}, "h.sqlite")["gate_note"] == "");
}

TEST_CASE("the dashboard counts a series' regression and progression groups", "[trend]") {
  // One regression group, 20 runs before the end: outside the short window (14 runs), which
  // the compliance counts; the dashboard's columns count the groups its chart draws.
  std::vector<double> values = one_old_step();
  values.insert(values.end(), 20, 100.0);  // and back: a progression, also outside it
  const TrendResult r = trended(values, std::nullopt);
  REQUIRE(r.grouping.groups.size() == 3);
  CHECK(r.compliance.regressions == 0);
  const auto series = trend_page_data({r}, trend::TrendWindows{}, "h.sqlite")["series"][0];
  CHECK(series["regression_groups"] == 1);
  CHECK(series["progression_groups"] == 1);
  CHECK(series["regressions"] == 0);
}

TEST_CASE("the trend plot fits a window 1200 pixels wide", "[trend]") {
  const TrendResult r = trended(one_old_step(), std::nullopt);
  const std::string svg = render_trend_svg(TrendPlot{"score", "s", r.series.runs, r.grouping});
  const auto width_at = svg.find(" width=\"");
  REQUIRE(width_at != std::string::npos);
  const double width = std::stod(svg.substr(width_at + 8));
  CHECK(width <= 1200 - 20);  // and room for a page margin and a scroll bar
}
