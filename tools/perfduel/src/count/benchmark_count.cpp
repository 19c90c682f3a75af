#include "count/benchmark_count.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "count/allocation_counts.hpp"
#include "count/profile.hpp"
#include "util/text.hpp"

namespace perfduel {

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
  const auto counts = simulated_values(larger.window->totals, cache);
  if (!counts) {
    return Result::failure(fmt::format("benchmark \"{}\": {}", name, counts.error()));
  }
  std::map<CountedEvent, double> less;  // the smaller run's counts, none without it
  double iterations = larger.logged.iterations;
  if (smaller != nullptr) {
    auto smaller_counts = simulated_values(smaller->window->totals, cache);
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

}  // namespace perfduel
