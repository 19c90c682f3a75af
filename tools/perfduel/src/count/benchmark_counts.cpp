#include "count/benchmark_counts.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "count/benchmark_count.hpp"
#include "count/benchmark_log.hpp"
#include "count/callgrind_dump.hpp"
#include "count/count_failure.hpp"
#include "run/gbench_results.hpp"
#include "util/file.hpp"

namespace perfduel {

namespace {

using Json = nlohmann::json;

// The numeric field `key` of `entry`, or `otherwise` when it has none.
double number_or(const GbenchEntry& entry, const std::string& key, double otherwise) {
  const auto it = entry.numbers.find(key);
  return it == entry.numbers.end() ? otherwise : it->second;
}

// The suite's runs so far: what RunResult will say, and the JSON entries of each benchmark.
struct SuiteProgress {
  RunResult result;
  std::map<std::string, std::vector<Json>> entries;
  Json context;
};

// A benchmark to run again alone, at a longer minimum time.
struct MinTimeRetry {
  std::string name;
  double min_time = 0;
};

// One callgrind process of the suite: its benchmarks, command and files.
struct CountingProcess {
  std::vector<std::string> names;
  CommandSpec command;
  CallgrindFiles files;
  RunLimits limits;
};

// Records the count of each benchmark of `process` in `result` from its run's `reading` and its
// `logged` runs; a benchmark that needs a longer minimum time is added to `retries` (without
// it, as uncountable). The problem when a count could not be read; empty when every one was.
std::string take_counts(RunResult& result, const CountingProcess& process, const GbenchReading& reading,
                        std::span<const LoggedRun> logged, bool fixed_count, CacheSimulation cache,
                        std::vector<MinTimeRetry>* retries) {
  std::map<std::string, int> threads;
  for (const GbenchEntry& entry : reading.results.entries) {
    threads[entry.name] = static_cast<int>(number_or(entry, "threads", 1));
  }
  const auto dumps = read_callgrind_dumps(process.files.output_base);
  if (!dumps) {
    return dumps.error();
  }
  const auto split = split_runs(*dumps, logged, threads);
  if (!split) {
    return split.error();
  }
  for (const std::string& name : process.names) {
    const auto found = split->find(name);
    const auto runs = found == split->end() ? std::span<const CountedRun>() : std::span(found->second);
    if (runs.empty() && std::none_of(reading.results.entries.begin(), reading.results.entries.end(),
                                     [&](const GbenchEntry& entry) { return entry.name == name; })) {
      return fmt::format("benchmark \"{}\": its run printed no JSON entry for it", name);
    }
    const auto count = count_from_runs(name, runs, fixed_count, cache);
    if (!count) {
      return count.error();
    }
    if (count->needs_min_time > 0 && retries != nullptr) {
      retries->push_back({name, count->needs_min_time});
    } else if (count->uncountable.empty()) {
      result.simulated_benchmarks[name] = count->per_iteration;
      result.profiles[name] = count->profile;
    } else {
      if (!count->profile.functions.empty()) {
        result.profiles[name] = count->profile;  // a benchmark that pauses its timer: explains all the same
      }
      result.uncountable[name] = count->uncountable;
    }
  }
  return {};
}

// Takes the finished run `run` of `process` into `progress`; false when the run failed or a
// count could not be read, and `progress.result` then says why. A benchmark that needs a
// longer minimum time is added to `retries` (without it, as uncountable).
bool take_run(SuiteProgress& progress, const CountingProcess& process, RunResult run, bool fixed_count,
              CacheSimulation cache, std::vector<MinTimeRetry>* retries) {
  auto& result = progress.result;
  result.user_seconds += run.user_seconds;
  result.system_seconds += run.system_seconds;
  result.max_rss_bytes = std::max(result.max_rss_bytes, run.max_rss_bytes);
  result.left_behind += run.left_behind;
  const auto log_text = util::read_file(process.files.log_file);
  const std::string log = log_text ? *log_text : std::string();
  const auto logged = logged_runs(run.err);
  if (run.status != RunStatus::exited || run.exit_code != 0) {
    const double wall = result.wall_seconds;
    const std::string running = logged.empty() ? process.names.front() : logged.back().name;
    run.err = fmt::format("benchmark \"{}\" under callgrind:\n{}", running, without_run_log(run.err));
    result = with_valgrind_log(std::move(run), log);
    result.wall_seconds = wall;
    return false;
  }
  const GbenchReading reading = read_gbench_results(run.out);
  if (auto problem = take_counts(result, process, reading, logged, fixed_count, cache, retries);
      !problem.empty()) {
    result.out = run.out;
    result = count_failed(std::move(result), std::move(problem), log);
    return false;
  }
  if (progress.context.is_null()) {
    progress.context = reading.results.context;
  }
  for (const GbenchEntry& entry : reading.results.entries) {
    if (retries == nullptr || std::none_of(retries->begin(), retries->end(), [&](const MinTimeRetry& retry) {
          return retry.name == entry.name;
        })) {
      progress.entries[entry.name].push_back(entry.json);
    }
  }
  return true;
}

// Removes every file of `directory`: the dumps and logs of the processes that ran.
void clear_directory(const std::filesystem::path& directory) {
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ignored)) {
    std::filesystem::remove(entry.path(), ignored);
  }
}

// Runs each benchmark of `retries` again alone (files and CPU those of `process`) at the minimum
// time it asked for, twice at most (the second time it is taken as it counts): a benchmark whose
// runs stopped short of a slope (under load its runs take longer). False when a run failed, as
// take_run says.
bool run_again_alone(Executor& executor, const CommandSpec& command, const SuiteCounting& counting,
                     bool fixed_count, const CountingProcess& process, std::vector<MinTimeRetry>& retries,
                     SuiteProgress& progress) {
  for (MinTimeRetry& retry : retries) {
    for (int attempt = 0; attempt < 2 && retry.min_time > 0; ++attempt) {
      CountingProcess alone{{retry.name}, {}, process.files, process.limits};
      alone.command = callgrind_benchmark_command(
          *with_min_time(command, std::max(retry.min_time, 2 * k_counting_min_time)), counting, alone.files,
          alone.names);
      std::vector<MinTimeRetry> again;
      const bool last = attempt == 1;
      if (!take_run(progress, alone, executor.run(alone.command, alone.limits), fixed_count, counting.cache,
                    last ? nullptr : &again)) {
        return false;
      }
      clear_directory(counting.directory);
      retry.min_time = again.empty() ? 0 : again.front().min_time;
    }
  }
  return true;
}

// The callgrind processes that count `names` (at most two, the names alternating between them),
// each running `command` with its own files in `counting.directory` and, when `limits` has two
// CPUs, on one of them.
std::vector<CountingProcess> suite_processes(std::span<const std::string> names, const CommandSpec& command,
                                             const SuiteCounting& counting, const RunLimits& limits) {
  std::vector<CountingProcess> suite(std::min<std::size_t>(2, names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    suite[i % suite.size()].names.push_back(names[i]);
  }
  for (std::size_t i = 0; i < suite.size(); ++i) {
    suite[i].files = {counting.directory / fmt::format("callgrind.{}", i),
                      counting.directory / fmt::format("valgrind.log.{}", i)};
    suite[i].command = callgrind_benchmark_command(command, counting, suite[i].files, suite[i].names);
    suite[i].limits = limits;
    if (limits.cpus.size() >= 2) {
      suite[i].limits.cpus = {limits.cpus[i]};
    }
  }
  return suite;
}

// The suite's stdout: one JSON document with the entries of every run of `progress`, in the order
// the suite lists its benchmarks, `names`.
std::string suite_output(std::span<const std::string> names, SuiteProgress& progress) {
  Json entries = Json::array();
  for (const std::string& name : names) {
    for (Json& entry : progress.entries[name]) {
      entries.push_back(std::move(entry));
    }
  }
  return Json{{"context", progress.context}, {"benchmarks", entries}}.dump(1);
}

}  // namespace

RunResult count_google_benchmarks(Executor& executor, const CommandSpec& command,
                                  const SuiteCounting& counting, const RunLimits& limits) {
  const double started = executor.now_seconds();
  CommandSpec list = command;
  list.argv.emplace_back("--benchmark_list_tests=true");
  RunLimits plain = limits;
  plain.timeout_seconds /= k_valgrind_slowdown;  // the listing runs natively
  RunResult listed = executor.run(list, plain);
  if (listed.status != RunStatus::exited || listed.exit_code != 0) {
    listed.err = "listing the benchmarks (--benchmark_list_tests=true):\n" + listed.err;
    return listed;
  }
  const auto names = listed_benchmarks(listed.out);
  SuiteProgress progress;
  progress.result.status = RunStatus::exited;
  progress.result.exit_code = 0;
  if (names.empty()) {
    progress.result.out = Json{{"context", nullptr}, {"benchmarks", Json::array()}}.dump(1);
    return progress.result;
  }
  const auto timed = with_min_time(command, k_counting_min_time);
  const bool fixed_count = !timed.has_value();
  const auto suite = suite_processes(names, timed ? *timed : command, counting, limits);
  std::array<RunResult, 2> runs;
  if (suite.size() == 2) {
    runs = executor.run_together({&suite[0].command, &suite[1].command}, {suite[0].limits, suite[1].limits});
  } else {
    runs[0] = executor.run(suite[0].command, suite[0].limits);
  }
  std::vector<MinTimeRetry> retries;
  bool counted = true;
  for (std::size_t i = 0; i < suite.size() && counted; ++i) {
    counted = take_run(progress, suite[i], std::move(runs[i]), fixed_count, counting.cache, &retries);
  }
  if (counted) {
    clear_directory(counting.directory);
    counted = run_again_alone(executor, command, counting, fixed_count, suite[0], retries, progress);
  }
  progress.result.wall_seconds = executor.now_seconds() - started;
  if (counted) {
    progress.result.out = suite_output(names, progress);
  }
  return progress.result;
}

}  // namespace perfduel
