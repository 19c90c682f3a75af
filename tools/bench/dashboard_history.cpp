// Fills a history with SERIES benchmarks of POINTS nightly runs each, for timing the whole
// dashboard (`perfduel trend --html`) at scale. Not a test: run it by hand, then time trend:
//   build/tools/bench/perfduel_dashboard_history /tmp/dashboard.sqlite 200 10000
//   /usr/bin/time -v build/tools/perfduel/perfduel trend --db /tmp/dashboard.sqlite --html /tmp/dashboard
// Each series is a level that steps by up to ±15 % every 150-600 runs, with 2 % normal noise
// (as trend_bench's), seeded; the runs are a minute apart, one record per run holding every
// series, as `perfduel record` of a suite's report writes them.
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "history/store.hpp"

using namespace perfduel::history;

namespace {

// The record of run `index`, with one measurement per series at `values`.
Record run_record(int index, const std::vector<double>& values) {
  Record record;
  record.recorded_at =
      fmt::format("2026-01-{:02}T{:02}:{:02}:00Z", 1 + index / 1440, index / 60 % 24, index % 60);
  record.commit = fmt::format("{:040x}", index);
  record.branch = "main";
  record.machine = "bench | CPU | 6.1";
  record.machine_id = "0123456789abcdef";
  record.source = "report";
  record.run_key = fmt::format("dashboard-{}", index);
  record.config_hash = "0123456789ab";
  for (std::size_t s = 0; s < values.size(); ++s) {
    Measurement m;
    m.metric = fmt::format("suite/BM_{:03}", s);
    m.value = values[s];
    m.samples = {m.value};
    m.verdict = "no-change";
    m.direction = "lower";
    m.unit = "s";
    record.measurements.push_back(std::move(m));
  }
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::atoi(argv[2]) <= 0 || std::atoi(argv[3]) <= 0) {
    fmt::print(stderr, "usage: perfduel_dashboard_history SQLITE_FILE|postgresql://URI SERIES POINTS\n");
    return 2;
  }
  auto store = open_history_store(argv[1], CreateFile::yes);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error());
    return 1;
  }
  const auto series = static_cast<std::size_t>(std::atoi(argv[2]));
  const int points = std::atoi(argv[3]);
  std::mt19937_64 random(1);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::uniform_real_distribution<double> step(-0.15, 0.15);
  std::uniform_int_distribution<int> segment(150, 600);
  std::vector<double> level(series, 1.0);
  std::vector<int> next_step(series, 0);
  for (int i = 0; i < points; ++i) {
    std::vector<double> values(series);
    for (std::size_t s = 0; s < series; ++s) {
      if (i >= next_step[s]) {
        level[s] *= 1.0 + step(random);
        next_step[s] = i + segment(random);
      }
      values[s] = level[s] * (1.0 + noise(random));
    }
    if (auto appended = (*store)->append(run_record(i, values)); !appended) {
      fmt::print(stderr, "{}\n", appended.error());
      return 1;
    }
  }
  return 0;
}
