#include "count/benchmark_log.hpp"

#include <algorithm>

#include "util/text.hpp"

namespace perfduel {

std::vector<std::string> listed_benchmarks(std::string_view output) {
  std::vector<std::string> names;
  for (const auto& line : util::split_lines(output)) {
    const auto name = util::trim(line);
    if (!name.empty()) {
      names.emplace_back(name);
    }
  }
  return names;
}

std::vector<LoggedRun> logged_runs(std::string_view err) {
  constexpr std::string_view k_log = "-- LOG(";
  constexpr std::string_view k_running = "2): Running ";
  constexpr std::string_view k_ran = "2): Ran in ";
  std::vector<LoggedRun> runs;
  // A message logged without a line end (Google Benchmark 1.8's warning for a --benchmark_min_time
  // without a unit) runs into the next one: each "-- LOG(" starts an entry, wherever it is.
  for (std::size_t at = err.find(k_log); at != std::string_view::npos;) {
    const std::size_t next = err.find(k_log, at + k_log.size());
    std::string_view entry =
        err.substr(at + k_log.size(), next == std::string_view::npos ? next : next - at - k_log.size());
    entry = util::trim(entry.substr(0, entry.find('\n')));
    at = next;
    if (entry.starts_with(k_running)) {
      entry.remove_prefix(k_running.size());
      const auto for_at = entry.rfind(" for ");
      const auto iterations = for_at == std::string_view::npos ? util::Expected<double>::failure("")
                                                               : util::parse_double(entry.substr(for_at + 5));
      if (iterations) {
        runs.push_back({std::string(entry.substr(0, for_at)), *iterations, 0});
      }
    } else if (entry.starts_with(k_ran) && !runs.empty()) {
      entry.remove_prefix(k_ran.size());
      const auto slash = entry.find('/');
      for (const auto part :
           {entry.substr(0, slash),
            slash == std::string_view::npos ? std::string_view() : entry.substr(slash + 1)}) {
        if (const auto seconds = util::parse_double(util::trim(part))) {
          runs.back().seconds = std::max(runs.back().seconds, *seconds);
        }
      }
    }
  }
  return runs;
}

std::string without_run_log(std::string_view err) {
  std::string kept;
  for (const auto& line : util::split_lines(err)) {
    if (!util::trim(line).starts_with("-- LOG(")) {
      kept += line + "\n";
    }
  }
  return kept;
}

}  // namespace perfduel
