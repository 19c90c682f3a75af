#include "run/benchmark_counts.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

using Json = nlohmann::json;

// The entries of benchmark `name` in `results`: its runs (run_type iteration, or no run_type in
// older versions), not the aggregates of its repetitions.
std::vector<const GbenchEntry*> runs_of(const GbenchResults& results, const std::string& name) {
  std::vector<const GbenchEntry*> runs;
  for (const GbenchEntry& entry : results.entries) {
    if (entry.name == name && entry.run_type == "iteration") {
      runs.push_back(&entry);
    }
  }
  return runs;
}

// The numeric field `key` of `entry`, or `otherwise` when it has none.
double number_or(const GbenchEntry& entry, const std::string& key, double otherwise) {
  const auto it = entry.numbers.find(key);
  return it == entry.numbers.end() ? otherwise : it->second;
}

}  // namespace

util::Expected<std::vector<CallgrindDump>> read_callgrind_dumps(const std::filesystem::path& base) {
  using Result = util::Expected<std::vector<CallgrindDump>>;
  std::vector<CallgrindDump> dumps;
  for (int part = 1;; ++part) {
    const auto path = base.string() + "." + std::to_string(part);
    if (!std::filesystem::exists(path)) {
      break;
    }
    const auto text = util::read_file(path);
    if (!text) {
      return Result::failure(text.error());
    }
    auto dump = parse_callgrind_dump(*text);
    if (!dump) {
      return Result::failure(fmt::format("callgrind dump {}: {}", path, dump.error()));
    }
    dumps.push_back(std::move(dump).value());
  }
  return dumps;
}

std::string exact_benchmark_filter(std::string_view name) {
  std::string filter = "^";
  for (const char c : name) {
    if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) {
      filter += '\\';
    }
    filter += c;
  }
  return filter + "$";
}

std::optional<CommandSpec> with_longer_min_time(const CommandSpec& command, double factor) {
  constexpr std::string_view k_flag = "--benchmark_min_time=";
  double seconds = 0.5;
  std::string suffix;
  for (const std::string& argument : command.argv) {
    if (!argument.starts_with(k_flag)) {
      continue;
    }
    std::string_view value = std::string_view(argument).substr(k_flag.size());
    suffix.clear();
    if (value.ends_with('x')) {
      return std::nullopt;
    }
    if (value.ends_with('s')) {
      suffix = "s";
      value.remove_suffix(1);
    }
    const auto parsed = util::parse_double(value);
    if (!parsed || !(*parsed > 0)) {
      return std::nullopt;
    }
    seconds = *parsed;
  }
  CommandSpec longer = command;
  longer.argv.push_back(fmt::format("{}{:g}{}", k_flag, seconds * factor, suffix));
  return longer;
}

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

util::Expected<BenchmarkCount> count_from_dumps(const std::string& name, std::span<const CallgrindDump> dumps,
                                                const GbenchResults& results, CacheSimulation cache) {
  using Result = util::Expected<BenchmarkCount>;
  const auto runs = runs_of(results, name);
  if (runs.empty()) {
    return Result::failure(fmt::format("benchmark \"{}\": its run printed no JSON entry for it", name));
  }
  BenchmarkCount count;
  const auto threads = static_cast<int>(number_or(*runs.back(), "threads", 1));
  const auto windows = call_windows(dumps, fmt::format("--dump-before={}(", k_loop_start),
                                    fmt::format("--dump-before={}(", k_loop_finish));
  if (threads > 1 || windows.overlapping) {
    count.uncountable = fmt::format(
        "runs {} threads, whose timed loops overlap in one count: not countable per iteration", threads);
    return count;
  }
  if (windows.windows.empty()) {
    return Result::failure(fmt::format(
        "benchmark \"{}\": callgrind saw no call of {} (is Google Benchmark older than 1.7, or the binary "
        "stripped of its symbols?)",
        name, k_loop_start));
  }
  const double iterations = number_or(*runs.back(), "iterations", 0.0);
  if (!(iterations > 0)) {
    return Result::failure(fmt::format("benchmark \"{}\": its JSON entry has no iterations", name));
  }
  const auto& last = windows.windows.back().totals;
  const auto& called = windows.windows.back().functions;
  if (std::any_of(called.begin(), called.end(),
                  [](const std::string& function) { return function.starts_with(k_timer_pause); })) {
    count.uncountable =
        "pauses its timer inside the loop (State::PauseTiming): the paused work would be in the count, not "
        "countable per iteration";
    return count;
  }
  if (const auto found = last.find("Ir");
      found != last.end() && found->second < k_least_window_instructions) {
    count.too_few = found->second;
    count.uncountable = fmt::format(
        "counted {:.0f} instructions in its final run of {:.0f} iterations, too few for the loop's own entry "
        "and exit to vanish: not countable per iteration at this --benchmark_min_time (the default 0.5 s "
        "is enough)",
        found->second, iterations);
    return count;
  }
  for (const CountedEvent event : {CountedEvent::instructions, CountedEvent::cycles}) {
    if (event == CountedEvent::cycles && cache == CacheSimulation::off) {
      break;
    }
    const auto value = simulated_value(last, event);
    if (!value) {
      return Result::failure(fmt::format("benchmark \"{}\": {}", name, value.error()));
    }
    count.per_iteration[event] = *value / iterations;
  }
  return count;
}

CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps) {
  CommandSpec wrapped;
  wrapped.launch = Launch::direct;
  wrapped.working_directory = command.working_directory;
  wrapped.environment = command.environment;
  wrapped.environment["LD_BIND_NOW"] = "1";
  wrapped.argv = {counting.valgrind.string(), "--tool=callgrind",
                  counting.cache == CacheSimulation::on ? "--cache-sim=yes" : "--cache-sim=no",
                  "--collect-atstart=yes"};
  wrapped.argv.insert(wrapped.argv.end(), dumps.begin(), dumps.end());
  wrapped.argv.push_back(fmt::format("--callgrind-out-file={}", files.output_base.string()));
  wrapped.argv.push_back(fmt::format("--log-file={}", files.log_file.string()));
  if (counting.cache == CacheSimulation::on) {
    const auto geometry = fixed_cache_arguments();
    wrapped.argv.insert(wrapped.argv.end(), geometry.begin(), geometry.end());
  }
  wrapped.argv.push_back(counting.program.string());
  wrapped.argv.insert(wrapped.argv.end(), command.argv.begin() + 1, command.argv.end());
  return wrapped;
}

CommandSpec callgrind_benchmark_command(const CommandSpec& command, const SuiteCounting& counting,
                                        const CallgrindFiles& files, const std::string& name) {
  const std::array<std::string, 2> dumps{fmt::format("--dump-before={}*", k_loop_start),
                                         fmt::format("--dump-before={}*", k_loop_finish)};
  CommandSpec wrapped = callgrind_command(command, counting, files, dumps);
  // After the user's arguments: Google Benchmark takes the last of a flag given twice.
  wrapped.argv.push_back("--benchmark_filter=" + exact_benchmark_filter(name));
  wrapped.argv.emplace_back("--benchmark_format=json");
  return wrapped;
}

namespace {

// The suite's runs so far: what RunResult will say, and the JSON entries of every benchmark.
struct SuiteProgress {
  RunResult result;
  Json entries = Json::array();
  Json context;
};

// Takes benchmark `name`'s finished run `run` (dumps under `base`, log `log`) into `progress`;
// false when the run failed or could not be counted, and `progress.result` then says why.
// With `too_few` not null, a run that counted too few instructions is not taken: *too_few says
// how many it counted, for a second run with a longer minimum time.
bool take_run(SuiteProgress& progress, const std::string& name, RunResult run,
              const std::filesystem::path& base, const std::filesystem::path& log, CacheSimulation cache,
              double* too_few) {
  auto& result = progress.result;
  result.user_seconds += run.user_seconds;
  result.system_seconds += run.system_seconds;
  result.max_rss_bytes = std::max(result.max_rss_bytes, run.max_rss_bytes);
  result.left_behind += run.left_behind;
  const auto log_text = util::read_file(log);
  if (run.status != RunStatus::exited || run.exit_code != 0) {
    const double wall = result.wall_seconds;
    result = std::move(run);
    result.wall_seconds = wall;
    result.err = fmt::format("benchmark \"{}\" under callgrind:\n{}", name, result.err);
    if (log_text) {
      result.err += "\n" + util::tail_lines(*log_text, 10);
    }
    return false;
  }
  auto dumps = read_callgrind_dumps(base);
  const GbenchReading reading = read_gbench_results(run.out);
  auto count = dumps ? count_from_dumps(name, *dumps, reading.results, cache)
                     : util::Expected<BenchmarkCount>::failure(dumps.error());
  if (!count) {
    result.status = RunStatus::failed_to_start;
    result.error = fmt::format("under valgrind: {}", count.error());
    result.err = log_text ? util::tail_lines(*log_text, 10) : std::string();
    result.out = run.out;
    return false;
  }
  if (too_few != nullptr && count->too_few > 0) {
    *too_few = count->too_few;
    return true;
  }
  if (count->uncountable.empty()) {
    result.simulated_benchmarks[name] = count->per_iteration;
  } else {
    result.uncountable[name] = count->uncountable;
  }
  if (progress.context.is_null()) {
    progress.context = reading.results.context;
  }
  for (const GbenchEntry& entry : reading.results.entries) {
    progress.entries.push_back(entry.json);
  }
  return true;
}

}  // namespace

RunResult count_google_benchmarks(Executor& executor, const CommandSpec& command,
                                  const SuiteCounting& counting, const RunLimits& limits) {
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
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
  std::error_code ignored;
  const bool may_run_longer = with_longer_min_time(command, 1.0).has_value();  // not a fixed count
  for (std::size_t first = 0; first < names.size(); first += 2) {
    const std::size_t count = std::min<std::size_t>(2, names.size() - first);
    std::array<CommandSpec, 2> commands;
    std::array<RunLimits, 2> pair_limits{limits, limits};
    std::array<std::filesystem::path, 2> bases;
    std::array<std::filesystem::path, 2> logs;
    for (std::size_t i = 0; i < count; ++i) {
      bases[i] = counting.directory / fmt::format("callgrind.{}", first + i);
      logs[i] = counting.directory / fmt::format("valgrind.log.{}", first + i);
      commands[i] = callgrind_benchmark_command(command, counting, {bases[i], logs[i]}, names[first + i]);
      if (limits.cpus.size() >= 2) {
        pair_limits[i].cpus = {limits.cpus[i]};
      }
    }
    std::array<RunResult, 2> runs;
    if (count == 2) {
      runs = executor.run_together({&commands[0], &commands[1]}, pair_limits);
    } else {
      runs[0] = executor.run(commands[0], pair_limits[0]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      // A final run too short to count (under load the framework runs fewer iterations in its
      // minimum time) is run again, alone, with a minimum time long enough, once.
      double too_few = 0;
      bool taken = take_run(progress, names[first + i], std::move(runs[i]), bases[i], logs[i], counting.cache,
                            may_run_longer ? &too_few : nullptr);
      if (taken && too_few > 0) {
        const double factor = std::clamp(2 * k_least_window_instructions / too_few, 2.0, 1000.0);
        for (const auto& entry : std::filesystem::directory_iterator(counting.directory, ignored)) {
          if (entry.path().filename().string().starts_with(bases[i].filename().string() + ".")) {
            std::filesystem::remove(entry.path(), ignored);  // this run's dumps, not its partner's
          }
        }
        const CommandSpec again = callgrind_benchmark_command(
            *with_longer_min_time(command, factor), counting, {bases[i], logs[i]}, names[first + i]);
        taken = take_run(progress, names[first + i], executor.run(again, pair_limits[i]), bases[i], logs[i],
                         counting.cache, nullptr);
      }
      if (!taken) {
        progress.result.wall_seconds = elapsed();
        return progress.result;
      }
    }
    for (const auto& entry : std::filesystem::directory_iterator(counting.directory, ignored)) {
      std::filesystem::remove(entry.path(), ignored);
    }
  }
  progress.result.wall_seconds = elapsed();
  progress.result.out = Json{{"context", progress.context}, {"benchmarks", progress.entries}}.dump(1);
  return progress.result;
}

}  // namespace perfduel
