#include "count/catch2_counts.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "count/allocation_counts.hpp"
#include "count/count_failure.hpp"
#include "count/profile.hpp"
#include "count/valgrind.hpp"
#include "stats/descriptive.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// What the reason a benchmark's one-stretch count is refused says (per_call), which a retry at a
// longer warm-up looks for (needs_longer_catch2_warmup).
constexpr std::string_view k_catch2_single_stretch = "too few for the stretch's own to vanish";

// What a dump's trigger marks in Catch2's benchmark sequence.
enum class Mark { other, preparing, starting, ended, stretch_start, stretch_finish };

Mark mark_of(std::string_view trigger) {
  constexpr std::string_view k_before = "--dump-before=";
  constexpr std::string_view k_after = "--dump-after=";
  const bool is_after = trigger.starts_with(k_after);
  if (!is_after && !trigger.starts_with(k_before)) {
    return Mark::other;
  }
  trigger.remove_prefix(is_after ? k_after.size() : k_before.size());
  if (trigger.find("[clone") != std::string_view::npos) {
    return Mark::other;  // a function's cold part (GCC's "[clone .cold]"), entered by a jump
  }
  // The function's name without its parameters: "...BenchmarkFunction::model<...>::call".
  const std::string_view name = trigger.substr(0, trigger.rfind('('));
  if (name.starts_with(k_catch2_stretch)) {
    if (!name.ends_with("::call")) {
      return Mark::other;
    }
    return is_after ? Mark::stretch_finish : Mark::stretch_start;
  }
  if (name.starts_with(k_catch2_events) && !is_after) {
    const std::string_view event = name.substr(k_catch2_events.size());
    if (event == "Preparing") {
      return Mark::preparing;
    }
    if (event == "Starting") {
      return Mark::starting;
    }
    if (event == "Ended" || event == "Failed") {
      return Mark::ended;
    }
  }
  return Mark::other;
}

// One benchmark's timed stretches: those of the sizing (1, 2, 4, ... calls) and the samples'.
struct Stretches {
  std::vector<EventTotals> sizing;
  std::vector<EventTotals> samples;
  std::vector<const Profile*> sizing_profiles;  // each stretch's, as above
  std::vector<const Profile*> sample_profiles;
  bool interrupted = false;  // another dump fell inside a stretch
};

// The stretches of each benchmark in `dumps`, in the order the benchmarks were prepared.
std::vector<Stretches> stretches_of(std::span<const CallgrindDump> dumps) {
  std::vector<Stretches> found;
  enum class Phase { sizing, sampling, done } phase = Phase::done;
  bool open = false;
  for (const CallgrindDump& dump : dumps) {
    const Mark mark = mark_of(dump.trigger);
    if (mark == Mark::preparing) {
      found.emplace_back();
      phase = Phase::sizing;
    } else if (mark == Mark::starting) {
      phase = Phase::sampling;
    } else if (mark == Mark::ended) {
      phase = Phase::done;
    } else if (found.empty() || phase == Phase::done) {
      continue;
    } else if (mark == Mark::stretch_finish && open) {
      const bool sizing = phase == Phase::sizing;
      (sizing ? found.back().sizing : found.back().samples).push_back(dump.totals);
      (sizing ? found.back().sizing_profiles : found.back().sample_profiles).push_back(&dump.profile);
    } else if (mark != Mark::stretch_start && open) {
      found.back().interrupted = true;
    }
    open = mark == Mark::stretch_start;
  }
  return found;
}

// `event`'s count in `totals`, an error naming the benchmark when the dump lacks it.
util::Expected<double> event_count(const EventTotals& totals, CountedEvent event, const std::string& name) {
  auto value = simulated_value(totals, event);
  if (!value) {
    return util::Expected<double>::failure(fmt::format("Catch2 benchmark \"{}\": {}", name, value.error()));
  }
  return *value;
}

// `event` per call of benchmark `benchmark` from its `stretches`: the difference of the last two
// stretches of the sizing, or the samples' stretches over their calls. Sets `why` and returns 0
// when it cannot be counted.
util::Expected<double> per_call(const Stretches& stretches, const Catch2Benchmark& benchmark,
                                CountedEvent event, std::string& why) {
  using Result = util::Expected<double>;
  const auto& sizing = stretches.sizing;
  if (sizing.size() >= 2) {
    const auto last = event_count(sizing.back(), event, benchmark.name);
    const auto before = event_count(sizing[sizing.size() - 2], event, benchmark.name);
    if (!last || !before) {
      return !last ? last : before;
    }
    const double calls = std::ldexp(1.0, static_cast<int>(sizing.size()) - 2);
    if (!(*last > *before)) {
      why = fmt::format(
          "its timed stretches of {:.0f} and {:.0f} calls counted {:.0f} and {:.0f}: its calls do not add up "
          "to a count per call",
          2 * calls, calls, *last, *before);
      return 0.0;
    }
    return (*last - *before) / calls;
  }
  const auto& samples = stretches.samples;
  if (samples.empty() || !(benchmark.iterations > 0)) {
    return Result::failure(
        fmt::format("Catch2 benchmark \"{}\": callgrind saw no timed stretch of it (no call of "
                    "BenchmarkFunction::model's call)",
                    benchmark.name));
  }
  double total = 0;
  double instructions = 0;
  for (const EventTotals& sample : samples) {
    const auto value = event_count(sample, event, benchmark.name);
    if (!value) {
      return value;
    }
    total += *value;
    const auto ir = sample.find("Ir");
    instructions += ir == sample.end() ? 0.0 : ir->second;
  }
  const double per_stretch = instructions / static_cast<double>(samples.size());
  if (per_stretch < k_least_window_instructions) {
    why = fmt::format(
        "counted {:.0f} instructions in a timed stretch of {:.0f} calls, {}: not countable per call",
        per_stretch, benchmark.iterations, k_catch2_single_stretch);
    return 0.0;
  }
  return total / (static_cast<double>(samples.size()) * benchmark.iterations);
}

// Where the instructions per call went, from the stretches per_call counted: the last two of
// the sizing, or the samples.
Profile profile_per_call(const Stretches& stretches, const Catch2Benchmark& benchmark) {
  const auto& sizing = stretches.sizing_profiles;
  if (sizing.size() >= 2) {
    const double calls = std::ldexp(1.0, static_cast<int>(sizing.size()) - 2);
    return profile_difference(*sizing.back(), *sizing[sizing.size() - 2], calls);
  }
  Profile sum;
  for (const Profile* sample : stretches.sample_profiles) {
    add_profile(sum, *sample);
  }
  return scaled_profile(std::move(sum),
                        static_cast<double>(stretches.sample_profiles.size()) * benchmark.iterations);
}

}  // namespace

std::vector<std::string> catch2_counting_arguments(std::span<const std::string> arguments, int warmup_ms) {
  const auto takes_value = [](std::string_view option) {
    return option == k_catch2_counting_arguments[0] || option == k_catch2_counting_arguments[2];
  };
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const std::string_view option = argument.substr(0, argument.find('='));
    if (takes_value(option)) {
      i += option.size() == argument.size() ? 1 : 0;  // its value, unless given with '='
    } else if (argument != k_catch2_counting_arguments[4]) {
      kept.emplace_back(argument);
    }
  }
  kept.insert(kept.end(), k_catch2_counting_arguments.begin(), k_catch2_counting_arguments.end());
  kept[kept.size() - 2] = std::to_string(warmup_ms);  // the warm-up's value
  return kept;
}

util::Expected<std::vector<BenchmarkCount>> catch2_counts_from_dumps(
    std::span<const CallgrindDump> dumps, std::span<const Catch2Benchmark> benchmarks,
    CacheSimulation cache) {
  using Result = util::Expected<std::vector<BenchmarkCount>>;
  const std::vector<Stretches> all = stretches_of(dumps);
  if (all.size() != benchmarks.size()) {
    return Result::failure(fmt::format(
        "callgrind saw {} Catch2 benchmarks start where the XML reports {} (is the binary stripped of its "
        "symbols, or is its Catch2 not v2 or v3?)",
        all.size(), benchmarks.size()));
  }
  std::vector<BenchmarkCount> counts(benchmarks.size());
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const Catch2Benchmark& benchmark = benchmarks[i];
    if (!benchmark.failure.empty()) {
      return Result::failure(
          fmt::format("Catch2 benchmark \"{}\" failed: {}", benchmark.name, benchmark.failure));
    }
    if (all[i].interrupted) {
      counts[i].uncountable = "runs another benchmark inside its own timed stretch: not countable per call";
      continue;
    }
    for (const CountedEvent event : simulated_events(cache)) {
      const auto value = per_call(all[i], benchmark, event, counts[i].uncountable);
      if (!value) {
        return Result::failure(value.error());
      }
      if (!counts[i].uncountable.empty()) {
        counts[i].per_iteration.clear();
        break;
      }
      counts[i].per_iteration[event] = *value;
    }
    if (counts[i].uncountable.empty()) {
      counts[i].profile = profile_per_call(all[i], benchmark);
      add_allocation_counts(counts[i].profile, counts[i].per_iteration);
    }
  }
  return counts;
}

namespace {

// Where the counting run of catch2_counting_command writes its dumps and its log.
CallgrindFiles catch2_files(const SuiteCounting& counting) {
  return {counting.directory / "callgrind", counting.directory / "valgrind.log"};
}

}  // namespace

CommandSpec catch2_counting_command(const CommandSpec& command, const SuiteCounting& counting) {
  // The after-pattern starts with `*`: one that began as the before-pattern would replace it.
  const std::array<std::string, 3> options{
      fmt::format("--dump-before={}*", k_catch2_stretch),
      fmt::format("--dump-after=*{}*", k_catch2_stretch.substr(std::string_view("Catch::").size())),
      fmt::format("--dump-before={}*", k_catch2_events)};
  CommandSpec own = command;
  own.argv.resize(1);
  const auto arguments = catch2_counting_arguments(std::span(command.argv).subspan(1), counting.warmup_ms);
  own.argv.insert(own.argv.end(), arguments.begin(), arguments.end());
  return callgrind_command(own, counting, catch2_files(counting), options);
}

RunResult read_catch2_counts(RunResult run, const SuiteCounting& counting) {
  const CallgrindFiles files = catch2_files(counting);
  const auto log_text = util::read_file(files.log_file);
  const std::string log = log_text ? *log_text : std::string();
  if (run.status != RunStatus::exited || run.exit_code != 0) {
    return with_valgrind_log(std::move(run), log);
  }
  const auto failed = [&](std::string problem) {
    return count_failed(std::move(run), std::move(problem), log);
  };
  const auto benchmarks = read_catch2_benchmarks(run.out);
  if (!benchmarks) {
    return failed(benchmarks.error());
  }
  const auto dumps = read_callgrind_dumps(files.output_base);
  if (!dumps) {
    return failed(dumps.error());
  }
  const auto counts = catch2_counts_from_dumps(*dumps, *benchmarks, counting.cache);
  if (!counts) {
    return failed(counts.error());
  }
  // A name reported several times (several test cases or sections run it) counts the median.
  std::map<std::string, std::map<CountedEvent, std::vector<double>>> readings;
  for (std::size_t i = 0; i < counts->size(); ++i) {
    const std::string& name = (*benchmarks)[i].name;
    if (!(*counts)[i].uncountable.empty()) {
      run.uncountable[name] = (*counts)[i].uncountable;
    }
    for (const auto& [event, value] : (*counts)[i].per_iteration) {
      readings[name][event].push_back(value);
    }
    if ((*counts)[i].uncountable.empty()) {
      run.profiles.try_emplace(name, (*counts)[i].profile);  // the first report's
    }
  }
  for (const auto& [name, events] : readings) {
    if (!run.uncountable.contains(name)) {
      for (const auto& [event, values] : events) {
        run.simulated_benchmarks[name][event] = stats::median(values);
      }
    } else {
      run.profiles.erase(name);
    }
  }
  return run;
}

bool needs_longer_catch2_warmup(const RunResult& run) {
  return std::any_of(run.uncountable.begin(), run.uncountable.end(), [](const auto& entry) {
    return entry.second.find(k_catch2_single_stretch) != std::string::npos;
  });
}

}  // namespace perfduel
