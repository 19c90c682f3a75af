#include "count/benchmark_counts.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "count/allocation_counts.hpp"
#include "count/profile.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

using Json = nlohmann::json;

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

std::string exact_benchmark_filter(std::span<const std::string> names) {
  std::string alternatives;
  for (const std::string& name : names) {
    if (!alternatives.empty()) {
      alternatives += '|';
    }
    for (const char c : name) {
      if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) {
        alternatives += '\\';
      }
      alternatives += c;
    }
  }
  return names.size() == 1 ? "^" + alternatives + "$" : "^(" + alternatives + ")$";
}

std::optional<CommandSpec> with_min_time(const CommandSpec& command, double seconds) {
  constexpr std::string_view k_flag = "--benchmark_min_time=";
  std::string suffix;
  for (const std::string& argument : command.argv) {
    if (!argument.starts_with(k_flag)) {
      continue;
    }
    const std::string_view value = std::string_view(argument).substr(k_flag.size());
    if (value.ends_with('x')) {
      return std::nullopt;
    }
    suffix = value.ends_with('s') ? "s" : "";
  }
  CommandSpec timed = command;
  timed.argv.push_back(fmt::format("{}{:g}{}", k_flag, seconds, suffix));
  return timed;
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

util::Expected<std::map<std::string, std::vector<CountedRun>>> split_runs(
    std::span<const CallgrindDump> dumps, std::span<const LoggedRun> logged,
    const std::map<std::string, int>& threads) {
  using Result = util::Expected<std::map<std::string, std::vector<CountedRun>>>;
  const std::string opening = fmt::format("--dump-before={}(", k_loop_start);
  const std::string closing = fmt::format("--dump-before={}(", k_loop_finish);
  std::vector<const CallgrindDump*> loop_dumps;
  for (const CallgrindDump& dump : dumps) {
    if (dump.trigger.starts_with(opening) || dump.trigger.starts_with(closing)) {
      loop_dumps.push_back(&dump);
    }
  }
  std::map<std::string, std::vector<CountedRun>> split;
  std::size_t next = 0;
  for (const LoggedRun& run : logged) {
    const auto found = threads.find(run.name);
    const auto calls = 2 * static_cast<std::size_t>(found == threads.end() ? 1 : std::max(found->second, 1));
    if (next + calls > loop_dumps.size()) {
      break;
    }
    CountedRun counted{run, std::nullopt, static_cast<int>(calls / 2)};
    if (calls == 2 && loop_dumps[next]->trigger.starts_with(opening) &&
        loop_dumps[next + 1]->trigger.starts_with(closing)) {
      counted.window = *loop_dumps[next + 1];
    }
    split[run.name].push_back(std::move(counted));
    next += calls;
  }
  if (next != loop_dumps.size() || (split.empty() && !logged.empty())) {
    return Result::failure(fmt::format(
        "callgrind's {} dumps around timed loops do not match the {} runs Google Benchmark logged (--v=2)",
        loop_dumps.size(), logged.size()));
  }
  return split;
}

namespace {

// The counts of `events` in `totals` (instructions; estimated cycles with the cache simulation).
util::Expected<std::map<CountedEvent, double>> window_counts(const EventTotals& totals,
                                                             CacheSimulation cache) {
  using Result = util::Expected<std::map<CountedEvent, double>>;
  std::map<CountedEvent, double> counts;
  for (const CountedEvent event : {CountedEvent::instructions, CountedEvent::cycles}) {
    if (event == CountedEvent::cycles && cache == CacheSimulation::off) {
      break;
    }
    const auto value = simulated_value(totals, event);
    if (!value) {
      return Result::failure(value.error());
    }
    counts[event] = *value;
  }
  return counts;
}

double instructions_of(const CountedRun& run) {
  const auto found = run.window->totals.find("Ir");
  return found == run.window->totals.end() ? 0.0 : found->second;
}

// Why `runs` cannot be counted whatever their counts (threads, a paused timer); empty if they can.
std::string uncountable_runs(std::span<const CountedRun> runs) {
  if (const auto threaded =
          std::find_if(runs.begin(), runs.end(), [](const CountedRun& run) { return !run.window; });
      threaded != runs.end()) {
    return threaded->threads > 1
               ? fmt::format(
                     "runs {} threads, whose timed loops overlap in one count: not countable per iteration",
                     threaded->threads)
               : "a run's dumps were not one opening and one closing of its loop: not countable per "
                 "iteration";
  }
  const auto pauses = [](const CountedRun& run) {
    return std::any_of(run.window->functions.begin(), run.window->functions.end(),
                       [](const std::string& function) { return function.starts_with(k_timer_pause); });
  };
  if (std::any_of(runs.begin(), runs.end(), pauses)) {
    return "pauses its timer inside the loop (State::PauseTiming): the paused work would be in the "
           "count, not countable per iteration";
  }
  return {};
}

// The counts per iteration of run `larger` less run `smaller` (none: nothing), over the
// difference of their iterations.
util::Expected<BenchmarkCount> per_iteration(const std::string& name, const CountedRun* smaller,
                                             const CountedRun& larger, CacheSimulation cache) {
  using Result = util::Expected<BenchmarkCount>;
  const auto counts = window_counts(larger.window->totals, cache);
  if (!counts) {
    return Result::failure(fmt::format("benchmark \"{}\": {}", name, counts.error()));
  }
  std::map<CountedEvent, double> less;  // the smaller run's counts, none without it
  double iterations = larger.logged.iterations;
  if (smaller != nullptr) {
    auto smaller_counts = window_counts(smaller->window->totals, cache);
    if (!smaller_counts) {
      return Result::failure(fmt::format("benchmark \"{}\": {}", name, smaller_counts.error()));
    }
    less = std::move(smaller_counts).value();
    iterations -= smaller->logged.iterations;
  }
  BenchmarkCount counted;
  for (const auto& [event, value] : *counts) {
    counted.per_iteration[event] = (value - less[event]) / iterations;
  }
  counted.profile = smaller != nullptr
                        ? profile_difference(larger.window->profile, smaller->window->profile, iterations)
                        : scaled_profile(larger.window->profile, iterations);
  add_allocation_counts(counted.profile, counted.per_iteration);
  return counted;
}

// Why the runs of 1, 10, ... iterations that ended with `last` gave no slope: the framework's
// most iterations, or too short a minimum time, and then the minimum time that would give one.
// The last of those runs took a tenth of the minimum time; the runs up to the one before the
// slope's larger run must not, at ten times the time per step: twice that, ten times over.
BenchmarkCount no_slope(const CountedRun& last) {
  BenchmarkCount count;
  if (last.logged.iterations >= k_most_iterations) {
    count.uncountable = fmt::format(
        "counted {:.0f} instructions in {:.0f} iterations, the framework's most: no work per "
        "iteration to count",
        instructions_of(last), last.logged.iterations);
    return count;
  }
  const double steps =
      std::max(1.0, std::ceil(std::log10(k_least_slope_instructions / std::max(instructions_of(last), 1.0))));
  count.needs_min_time = last.logged.seconds > 0 ? 20 * last.logged.seconds * std::pow(10.0, steps - 1)
                                                 : 10 * k_counting_min_time;
  count.uncountable = fmt::format(
      "its runs of 1, 10, 100, ... iterations under callgrind stopped at {}, {:.0f} instructions, before one "
      "counted {:.0f}: not countable per iteration (does the benchmark set its own MinTime?)",
      util::counted(static_cast<long long>(last.logged.iterations), "iteration"), instructions_of(last),
      k_least_slope_instructions);
  return count;
}

}  // namespace

namespace {

// The count of `runs` whose windows are each one thread's, a paused timer or not (count_from_runs).
util::Expected<BenchmarkCount> count_from_windows(const std::string& name, std::span<const CountedRun> runs,
                                                  bool fixed_count, CacheSimulation cache) {
  BenchmarkCount count;
  if (fixed_count) {
    const CountedRun& last = runs.back();
    if (instructions_of(last) < k_least_window_instructions) {
      count.uncountable = fmt::format(
          "counted {:.0f} instructions in its run of {:.0f} iterations, too few for the loop's own entry and "
          "exit to vanish: not countable per iteration at this fixed iteration count",
          instructions_of(last), last.logged.iterations);
      return count;
    }
    return per_iteration(name, nullptr, last, cache);
  }
  // The runs of 1, 10, 100, ... iterations the framework starts with.
  std::size_t powers = 0;
  for (double iterations = 1; powers < runs.size() && runs[powers].logged.iterations == iterations;
       iterations *= 10) {
    ++powers;
  }
  if (powers == 0) {
    count.uncountable = fmt::format(
        "its first run was of {:.0f} iterations, not 1 (a warm-up, or an iteration count set in the code): "
        "not countable per iteration",
        runs.front().logged.iterations);
    return count;
  }
  if (instructions_of(runs.front()) >= k_least_slope_instructions) {
    return per_iteration(name, nullptr, runs.front(), cache);
  }
  for (std::size_t j = 1; j < powers; ++j) {
    if (instructions_of(runs[j]) >= k_least_slope_instructions) {
      return per_iteration(name, &runs[j - 1], runs[j], cache);
    }
  }
  return no_slope(runs[powers - 1]);
}

}  // namespace

util::Expected<BenchmarkCount> count_from_runs(const std::string& name, std::span<const CountedRun> runs,
                                               bool fixed_count, CacheSimulation cache) {
  using Result = util::Expected<BenchmarkCount>;
  if (runs.empty()) {
    return Result::failure(fmt::format(
        "benchmark \"{}\": callgrind saw no run of its timed loop (is Google Benchmark older than "
        "1.7, or the binary stripped of its symbols?)",
        name));
  }
  BenchmarkCount count;
  count.uncountable = uncountable_runs(runs);
  if (!count.uncountable.empty()) {
    const bool paused =
        std::all_of(runs.begin(), runs.end(), [](const CountedRun& run) { return run.window; });
    if (paused) {
      // Not a count, but a profile: the paused work is alike on both sides and cancels in a
      // comparison of the two, which is all an explanation needs (duel/profiling.hpp).
      if (auto timed = count_from_windows(name, runs, fixed_count, cache);
          timed && timed->uncountable.empty()) {
        count.profile = timed->profile;
      }
    }
    return count;
  }
  return count_from_windows(name, runs, fixed_count, cache);
}

CommandSpec callgrind_command(const CommandSpec& command, const SuiteCounting& counting,
                              const CallgrindFiles& files, std::span<const std::string> dumps) {
  CommandSpec wrapped;
  wrapped.launch = Launch::direct;
  wrapped.working_directory = command.working_directory;
  wrapped.environment = command.environment;
  wrapped.environment["LD_BIND_NOW"] = "1";
  if (!counting.allocator.empty()) {
    auto& preload = wrapped.environment["LD_PRELOAD"];
    preload = preload.empty() ? counting.allocator.string() : preload + ":" + counting.allocator.string();
  }
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
                                        const CallgrindFiles& files, std::span<const std::string> names) {
  const std::array<std::string, 2> dumps{fmt::format("--dump-before={}*", k_loop_start),
                                         fmt::format("--dump-before={}*", k_loop_finish)};
  CommandSpec wrapped = callgrind_command(command, counting, files, dumps);
  // After the user's arguments: Google Benchmark takes the last of a flag given twice.
  wrapped.argv.push_back("--benchmark_filter=" + exact_benchmark_filter(names));
  wrapped.argv.emplace_back("--benchmark_format=json");
  wrapped.argv.emplace_back("--benchmark_repetitions=1");
  wrapped.argv.emplace_back("--v=2");
  return wrapped;
}

namespace {

// `err` without the lines Google Benchmark logs at --v=2.
std::string without_run_log(std::string_view err) {
  std::string kept;
  for (const auto& line : util::split_lines(err)) {
    if (!util::trim(line).starts_with("-- LOG(")) {
      kept += line + "\n";
    }
  }
  return kept;
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
  const auto logged = logged_runs(run.err);
  if (run.status != RunStatus::exited || run.exit_code != 0) {
    const double wall = result.wall_seconds;
    const std::string running = logged.empty() ? process.names.front() : logged.back().name;
    result = std::move(run);
    result.wall_seconds = wall;
    result.err = fmt::format("benchmark \"{}\" under callgrind:\n{}", running, without_run_log(result.err));
    if (log_text) {
      result.err += "\n" + util::tail_lines(*log_text, 10);
    }
    return false;
  }
  const GbenchReading reading = read_gbench_results(run.out);
  std::map<std::string, int> threads;
  for (const GbenchEntry& entry : reading.results.entries) {
    threads[entry.name] = static_cast<int>(number_or(entry, "threads", 1));
  }
  const auto fail = [&](const std::string& error) {
    result.status = RunStatus::failed_to_start;
    result.error = fmt::format("under valgrind: {}", error);
    result.err = log_text ? util::tail_lines(*log_text, 10) : std::string();
    result.out = run.out;
    return false;
  };
  const auto dumps = read_callgrind_dumps(process.files.output_base);
  if (!dumps) {
    return fail(dumps.error());
  }
  const auto split = split_runs(*dumps, logged, threads);
  if (!split) {
    return fail(split.error());
  }
  for (const std::string& name : process.names) {
    const auto found = split->find(name);
    const auto runs = found == split->end() ? std::span<const CountedRun>() : std::span(found->second);
    if (runs.empty() && std::none_of(reading.results.entries.begin(), reading.results.entries.end(),
                                     [&](const GbenchEntry& entry) { return entry.name == name; })) {
      return fail(fmt::format("benchmark \"{}\": its run printed no JSON entry for it", name));
    }
    const auto count = count_from_runs(name, runs, fixed_count, cache);
    if (!count) {
      return fail(count.error());
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
  if (names.empty()) {
    progress.result.out = Json{{"context", nullptr}, {"benchmarks", Json::array()}}.dump(1);
    return progress.result;
  }
  const auto timed = with_min_time(command, k_counting_min_time);
  const bool fixed_count = !timed.has_value();
  const std::size_t processes = std::min<std::size_t>(2, names.size());
  std::array<CountingProcess, 2> suite;
  for (std::size_t i = 0; i < names.size(); ++i) {
    suite[i % processes].names.push_back(names[i]);
  }
  for (std::size_t i = 0; i < processes; ++i) {
    suite[i].files = {counting.directory / fmt::format("callgrind.{}", i),
                      counting.directory / fmt::format("valgrind.log.{}", i)};
    suite[i].command =
        callgrind_benchmark_command(timed ? *timed : command, counting, suite[i].files, suite[i].names);
    suite[i].limits = limits;
    if (limits.cpus.size() >= 2) {
      suite[i].limits.cpus = {limits.cpus[i]};
    }
  }
  std::array<RunResult, 2> runs;
  if (processes == 2) {
    runs = executor.run_together({&suite[0].command, &suite[1].command}, {suite[0].limits, suite[1].limits});
  } else {
    runs[0] = executor.run(suite[0].command, suite[0].limits);
  }
  std::vector<MinTimeRetry> retries;
  for (std::size_t i = 0; i < processes; ++i) {
    if (!take_run(progress, suite[i], std::move(runs[i]), fixed_count, counting.cache, &retries)) {
      progress.result.wall_seconds = elapsed();
      return progress.result;
    }
  }
  clear_directory(counting.directory);
  if (!run_again_alone(executor, command, counting, fixed_count, suite[0], retries, progress)) {
    progress.result.wall_seconds = elapsed();
    return progress.result;
  }
  progress.result.wall_seconds = elapsed();
  Json entries = Json::array();  // in the order the suite lists its benchmarks
  for (const std::string& name : names) {
    for (Json& entry : progress.entries[name]) {
      entries.push_back(std::move(entry));
    }
  }
  progress.result.out = Json{{"context", progress.context}, {"benchmarks", entries}}.dump(1);
  return progress.result;
}

}  // namespace perfduel
