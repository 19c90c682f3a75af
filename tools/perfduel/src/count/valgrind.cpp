#include "count/valgrind.hpp"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "count/benchmark_counts.hpp"
#include "count/catch2_counts.hpp"
#include "count/profile.hpp"
#include "run/process_executor.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr const char* k_output_prefix = "cachegrind.out.";
constexpr const char* k_log_prefix = "valgrind.log.";

double count_of(const CachegrindCounts& counts, const char* event) {
  const auto found = counts.find(event);
  return found == counts.end() ? 0.0 : found->second;
}

}  // namespace

util::Expected<CachegrindCounts> parse_cachegrind_output(std::string_view text) {
  using Result = util::Expected<CachegrindCounts>;
  std::vector<std::string> events;
  std::vector<std::string> totals;
  for (const auto& line : util::split_lines(text)) {
    if (line.starts_with("events:")) {
      events = util::split_words(line.substr(7));
    } else if (line.starts_with("summary:")) {
      totals = util::split_words(line.substr(8));
    }
  }
  if (events.empty()) {
    return Result::failure("no \"events:\" line");
  }
  if (totals.empty()) {
    return Result::failure("no \"summary:\" line (did the program end normally?)");
  }
  if (totals.size() != events.size()) {
    return Result::failure(
        fmt::format("the summary has {} totals for {} events", totals.size(), events.size()));
  }
  CachegrindCounts counts;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto value = util::parse_double(totals[i]);
    if (!value) {
      return Result::failure(fmt::format("summary total \"{}\" of {} is not a number", totals[i], events[i]));
    }
    counts[events[i]] = *value;
  }
  return counts;
}

double estimated_cycles(const CachegrindCounts& counts) {
  const double first_level = count_of(counts, "I1mr") + count_of(counts, "D1mr") + count_of(counts, "D1mw");
  const double last_level = count_of(counts, "ILmr") + count_of(counts, "DLmr") + count_of(counts, "DLmw");
  return count_of(counts, "Ir") + 10 * first_level + 100 * last_level;
}

util::Expected<double> simulated_value(const CachegrindCounts& counts, CountedEvent event) {
  using Result = util::Expected<double>;
  if (counts.find("Ir") == counts.end()) {
    return Result::failure("cachegrind counted no instructions (no Ir event)");
  }
  switch (event) {
    case CountedEvent::instructions:
      return count_of(counts, "Ir");
    case CountedEvent::cycles:
      if (counts.find("D1mr") == counts.end()) {
        return Result::failure(
            "cachegrind ran without its cache simulation, which the cycles estimate needs");
      }
      return estimated_cycles(counts);
    case CountedEvent::branch_misses:
    case CountedEvent::cache_misses:
    case CountedEvent::allocations:
    case CountedEvent::allocated_bytes:
      break;
  }
  return Result::failure(fmt::format("valgrind does not count {}", counted_event_name(event)));
}

util::Expected<std::filesystem::path> find_valgrind() {
  auto found = resolve_program("valgrind", {});
  if (!found) {
    return util::Expected<std::filesystem::path>::failure(
        "valgrind is not on PATH (install it: apt-get install valgrind, dnf install valgrind, brew install "
        "valgrind)");
  }
  return found;
}

std::vector<std::string> fixed_cache_arguments() {
  return {"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"};
}

CommandSpec valgrind_command(const CommandSpec& command, const std::filesystem::path& program,
                             const std::filesystem::path& valgrind, CacheSimulation cache,
                             const std::filesystem::path& output_directory) {
  CommandSpec wrapped;
  wrapped.launch = Launch::direct;
  wrapped.working_directory = command.working_directory;
  wrapped.environment = command.environment;
  wrapped.argv = {
      valgrind.string(),
      "--tool=cachegrind",
      cache == CacheSimulation::on ? "--cache-sim=yes" : "--cache-sim=no",
      "--trace-children=yes",
      fmt::format("--cachegrind-out-file={}", (output_directory / k_output_prefix).string() + "%p"),
      fmt::format("--log-file={}", (output_directory / k_log_prefix).string() + "%p")};
  if (cache == CacheSimulation::on) {
    const auto geometry = fixed_cache_arguments();
    wrapped.argv.insert(wrapped.argv.end(), geometry.begin(), geometry.end());
  }
  if (command.launch == Launch::shell) {
    wrapped.argv.insert(wrapped.argv.end(), {program.string(), "-c", command.argv.front()});
  } else {
    wrapped.argv.push_back(program.string());
    wrapped.argv.insert(wrapped.argv.end(), command.argv.begin() + 1, command.argv.end());
  }
  return wrapped;
}

ValgrindExecutor::ValgrindExecutor(Executor& inner, std::filesystem::path valgrind, CacheSimulation cache,
                                   BenchmarkFramework framework, std::filesystem::path allocator)
    : m_inner(inner),
      m_valgrind(std::move(valgrind)),
      m_cache(cache),
      m_framework(framework),
      m_allocator(std::move(allocator)) {
  std::string pattern = (std::filesystem::temp_directory_path() / "perfduel-valgrind-XXXXXX").string();
  if (::mkdtemp(pattern.data()) != nullptr) {
    m_directory = pattern;
  }
}

ValgrindExecutor::~ValgrindExecutor() {
  std::error_code ignored;
  if (!m_directory.empty()) {
    std::filesystem::remove_all(m_directory, ignored);
  }
}

namespace {

// What cachegrind left in a run's directory: its logs, the counts of all its output files
// summed (one per process), the last problem reading them, and how many there were.
struct CachegrindOutputs {
  std::string log;
  CachegrindCounts total;
  std::string problem;
  int outputs = 0;
  Profile profile;  // every process's functions
};

CachegrindOutputs read_outputs(const std::filesystem::path& directory) {
  CachegrindOutputs read;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ignored)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with(k_log_prefix)) {
      if (const auto text = util::read_file(entry.path())) {
        read.log += *text;
      }
    } else if (name.starts_with(k_output_prefix)) {
      ++read.outputs;
      const auto text = util::read_file(entry.path());
      if (!text) {
        read.problem = text.error();
        continue;
      }
      auto counts = parse_cachegrind_output(*text);
      if (!counts) {
        read.problem = fmt::format("cachegrind output {}: {}", name, counts.error());
        continue;
      }
      for (const auto& [event, value] : *counts) {
        read.total[event] += value;
      }
      if (auto profile = parse_profile(*text)) {
        add_profile(read.profile, *profile);
      }
    }
  }
  return read;
}

}  // namespace

util::Expected<ValgrindExecutor::Prepared> ValgrindExecutor::prepare(const CommandSpec& command,
                                                                     const RunLimits& limits, int slot,
                                                                     int warmup_ms) {
  using Result = util::Expected<Prepared>;
  if (m_directory.empty()) {
    return Result::failure("cannot create a temporary directory for cachegrind's output");
  }
  // Valgrind needs the program's path; resolve it as a plain run would, once per command.
  std::filesystem::path program = "/bin/sh";
  if (command.launch == Launch::direct) {
    const auto key = command.working_directory.string() + '\0' + command.argv.front();
    auto cached = m_resolved.find(key);
    if (cached == m_resolved.end()) {
      auto resolved = resolve_program(command.argv.front(), command.working_directory);
      if (!resolved) {
        return Result::failure(resolved.error());
      }
      cached = m_resolved.emplace(key, std::move(resolved).value()).first;
    }
    program = cached->second;
  } else if (m_framework != BenchmarkFramework::none) {
    return Result::failure(
        "counting each benchmark under valgrind needs the program itself as the command, not a shell");
  }
  const std::filesystem::path directory = m_directory / fmt::format("run.{}", slot);
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  std::filesystem::create_directory(directory, ignored);
  RunLimits stretched = limits;
  stretched.timeout_seconds *= k_valgrind_slowdown;
  stretched.counters.clear();  // hardware counters would count Valgrind itself
  Prepared prepared{command, std::move(stretched), std::move(program), directory, warmup_ms};
  if (m_framework == BenchmarkFramework::catch2) {
    prepared.command = catch2_counting_command(command, counting_of(prepared));
  } else if (m_framework == BenchmarkFramework::none) {
    prepared.command = valgrind_command(command, prepared.program, m_valgrind, m_cache, directory);
  }  // a suite's processes are made by count_google_benchmarks
  return prepared;
}

SuiteCounting ValgrindExecutor::counting_of(const Prepared& prepared) const {
  return {prepared.program, m_valgrind, m_cache, prepared.directory, prepared.warmup_ms, m_allocator};
}

RunResult ValgrindExecutor::with_longer_warmups(const CommandSpec& command, const RunLimits& limits,
                                                RunResult done) {
  for (const int warmup_ms : k_catch2_longer_warmups_ms) {
    if (m_framework != BenchmarkFramework::catch2 || done.status != RunStatus::exited ||
        !needs_longer_catch2_warmup(done)) {
      break;
    }
    auto prepared = prepare(command, limits, 0, warmup_ms);
    if (!prepared) {
      break;
    }
    done = finish(*prepared, m_inner.run(prepared->command, prepared->limits));
  }
  return done;
}

RunResult ValgrindExecutor::finish(const Prepared& prepared, RunResult result) const {
  if (m_framework == BenchmarkFramework::catch2) {
    return read_catch2_counts(std::move(result), counting_of(prepared));
  }
  auto [log, total, problem, outputs, profile] = read_outputs(prepared.directory);
  if (result.status != RunStatus::exited || result.exit_code != 0) {
    // Valgrind's own complaints (a program it cannot run, an unsupported instruction) are in its log.
    if (!log.empty()) {
      result.err += "\n" + util::tail_lines(log, 10);
    }
    return result;
  }
  if (problem.empty() && outputs == 0) {
    problem =
        fmt::format("valgrind wrote no cachegrind output; its log: {}", util::trim(util::tail_lines(log, 3)));
  }
  for (const CountedEvent event : {CountedEvent::instructions, CountedEvent::cycles}) {
    if (!problem.empty() || (event == CountedEvent::cycles && m_cache == CacheSimulation::off)) {
      break;
    }
    const auto value = simulated_value(total, event);
    if (!value) {
      problem = value.error();
      break;
    }
    result.simulated[event] = *value;
  }
  if (problem.empty()) {
    result.profiles[""] = std::move(profile);
  } else {
    result.status = RunStatus::failed_to_start;
    result.error = fmt::format("under valgrind: {}", problem);
    result.err += "\n" + util::tail_lines(log, 10);
  }
  return result;
}

RunResult ValgrindExecutor::run(const CommandSpec& command, const RunLimits& limits) {
  auto prepared = prepare(command, limits, 0);
  if (!prepared) {
    RunResult failed;
    failed.error = prepared.error();
    return failed;
  }
  if (m_framework == BenchmarkFramework::google_benchmark) {
    return count_google_benchmarks(m_inner, command, counting_of(*prepared), prepared->limits);
  }
  return with_longer_warmups(command, limits,
                             finish(*prepared, m_inner.run(prepared->command, prepared->limits)));
}

std::array<RunResult, 2> ValgrindExecutor::run_together(const std::array<const CommandSpec*, 2>& commands,
                                                        const std::array<RunLimits, 2>& limits) {
  const auto one_after_the_other = [&]() -> std::array<RunResult, 2> {
    return {run(*commands[0], limits[0]), run(*commands[1], limits[1])};
  };
  if (m_framework == BenchmarkFramework::google_benchmark) {
    return one_after_the_other();
  }
  auto first = prepare(*commands[0], limits[0], 0);
  auto second = prepare(*commands[1], limits[1], 1);
  if (!first || !second) {
    return one_after_the_other();  // each says why it cannot run
  }
  auto results = m_inner.run_together({&first->command, &second->command}, {first->limits, second->limits});
  return {with_longer_warmups(*commands[0], limits[0], finish(*first, std::move(results[0]))),
          with_longer_warmups(*commands[1], limits[1], finish(*second, std::move(results[1])))};
}

}  // namespace perfduel
