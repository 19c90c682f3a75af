// Times the history stores: recording one report-sized record, and reading a 10,000-point
// series for `perfduel trend`. Not a test: run it by hand against a SQLite file or a
// PostgreSQL URI (docs/history.md has the figures and the commands), e.g.
//   build/tools/bench/perfduel_history_bench /tmp/bench.sqlite
//   tests/history/with_postgres.sh sh -c 'build/tools/bench/perfduel_history_bench "$PERFDUEL_TEST_PG_URI"'
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "history/store.hpp"
#include "trend/jumpavg.hpp"

using namespace perfduel::history;

namespace {

constexpr int k_points = 10'000;
constexpr int k_record_repeats = 50;

// A record like one from a compare report: three metrics of 30 samples each.
Record report_record(int index, const std::string& metric) {
  Record record;
  record.recorded_at = fmt::format("2026-{:02}-{:02}T{:02}:{:02}:00Z", 1 + index / 2800 % 12,
                                   1 + index / 100 % 28, index / 4 % 24, index % 60);
  record.commit = fmt::format("{:040x}", index);
  record.branch = "main";
  record.machine = "bench | CPU | 6.1";
  record.machine_id = "0123456789abcdef";
  record.source = "report";
  record.run_key = fmt::format("{}-{}", metric, index);
  record.config_hash = "0123456789ab";
  for (const char* name : {"wall_time", "user_time", "max_rss"}) {
    Measurement m;
    m.metric = std::string(name) == "wall_time" ? metric : metric + "_" + name;
    m.value = 1.0 + 0.01 * (index % 7);
    for (int s = 0; s < 30; ++s) {
      m.samples.push_back(m.value * (1.0 + 0.001 * s));
    }
    m.baseline = m.value;
    m.change = 0.0;
    m.ci_low = -0.01;
    m.ci_high = 0.01;
    m.verdict = "no-change";
    m.direction = "lower";
    m.unit = "s";
    record.measurements.push_back(std::move(m));
  }
  return record;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::unique_ptr<HistoryStore> open_or_exit(const std::string& location) {
  auto store = open_history_store(location, CreateFile::yes);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error());
    std::exit(1);
  }
  return std::move(store).value();
}

// Trending: the series read, and the grouping that follows it (the same for both stores), five
// times: each one's seconds, the points read and the groups found.
struct TrendTimes {
  std::vector<double> read_seconds;
  std::vector<double> group_seconds;
  std::size_t points = 0;
  std::size_t groups = 0;
};

TrendTimes time_trending(const std::string& location, const std::string& metric) {
  TrendTimes times;
  for (int r = 0; r < 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto reader = open_or_exit(location);
    auto series = reader->series(metric, std::string("main"));
    if (!series) {
      fmt::print(stderr, "{}\n", series.error());
      std::exit(1);
    }
    times.read_seconds.push_back(seconds_since(start));
    times.points = series->size();
    std::vector<double> values;
    for (const auto& point : *series) {
      values.push_back(point.measurement.value);
    }
    const auto group_start = std::chrono::steady_clock::now();
    const auto grouping = perfduel::trend::group_values(values, perfduel::trend::GroupingOptions{});
    times.group_seconds.push_back(seconds_since(group_start));
    times.groups = grouping ? grouping->groups.size() : 0;
  }
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: perfduel_history_bench SQLITE_FILE|postgresql://URI\n");
    return 2;
  }
  const std::string location = argv[1];
  if (!is_postgres_location(location)) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(location + suffix);
    }
  }
  const std::string metric =
      fmt::format("bench{}", std::chrono::system_clock::now().time_since_epoch().count());

  // Recording: what `perfduel record` does after reading the report, a fresh connection each.
  std::vector<double> record_seconds;
  for (int i = 0; i < k_record_repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto store = open_or_exit(location);
    if (!store->append(report_record(i, metric))) {
      return 1;
    }
    record_seconds.push_back(seconds_since(start));
  }
  // Retrying: the same run id again.
  std::vector<double> retry_seconds;
  for (int i = 0; i < 10; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto store = open_or_exit(location);
    auto again = store->append(report_record(i, metric));
    if (!again || again->status != Appended::already_recorded) {
      return 1;
    }
    retry_seconds.push_back(seconds_since(start));
  }
  auto store = open_or_exit(location);
  const auto fill_start = std::chrono::steady_clock::now();
  for (int i = k_record_repeats; i < k_points; ++i) {
    if (!store->append(report_record(i, metric))) {
      return 1;
    }
  }
  const double fill = seconds_since(fill_start);

  const auto [read_seconds, group_seconds, points, groups] = time_trending(location, metric);
  fmt::print("{} (metric {})\n", redact_location(location), metric);
  fmt::print(
      "  record one report (3 metrics x 30 samples, open + append): median {:.2f} ms, min {:.2f} ms ({} "
      "runs)\n",
      median(record_seconds) * 1e3, *std::min_element(record_seconds.begin(), record_seconds.end()) * 1e3,
      record_seconds.size());
  fmt::print("  retried record (run id present, nothing added):             median {:.2f} ms ({} runs)\n",
             median(retry_seconds) * 1e3, retry_seconds.size());
  fmt::print("  {} more records in one connection:                       {:.1f} s ({:.2f} ms each)\n",
             k_points - k_record_repeats, fill, fill / (k_points - k_record_repeats) * 1e3);
  fmt::print(
      "  read a {}-point series (open + query):                    median {:.1f} ms, min {:.1f} ms (5 "
      "runs)\n",
      points, median(read_seconds) * 1e3, *std::min_element(read_seconds.begin(), read_seconds.end()) * 1e3);
  fmt::print("  group it (jumpavg, {} groups):                                median {:.1f} ms\n", groups,
             median(group_seconds) * 1e3);
  return 0;
}
