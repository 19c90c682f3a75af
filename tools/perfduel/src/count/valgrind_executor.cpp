#include "count/valgrind_executor.hpp"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "count/benchmark_counts.hpp"
#include "count/callgrind_command.hpp"
#include "count/catch2_counts.hpp"
#include "count/count_failure.hpp"
#include "count/profile.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

ValgrindExecutor::ValgrindExecutor(Executor& inner, std::filesystem::path valgrind, CacheSimulation cache,
                                   BenchmarkFramework framework, std::filesystem::path allocator)
    : m_inner(inner),
      m_valgrind(std::move(valgrind)),
      m_cache(cache),
      m_framework(framework),
      m_allocator(std::move(allocator)),
      m_directory("perfduel-valgrind") {}

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
    if (name.starts_with(k_cachegrind_log_prefix)) {
      if (const auto text = util::read_file(entry.path())) {
        read.log += *text;
      }
    } else if (name.starts_with(k_cachegrind_output_prefix)) {
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
  if (m_directory.path().empty()) {
    return Result::failure("cannot create a temporary directory for cachegrind's output");
  }
  // Valgrind needs the program's path; resolve it as a plain run would, once per command.
  std::filesystem::path program = "/bin/sh";
  if (command.launch == Launch::direct) {
    auto resolved = m_programs.resolve(command.argv.front(), command.working_directory);
    if (!resolved) {
      return Result::failure(resolved.error());
    }
    program = std::move(resolved).value();
  } else if (m_framework != BenchmarkFramework::none) {
    return Result::failure(
        "counting each benchmark under valgrind needs the program itself as the command, not a shell");
  }
  const std::filesystem::path directory = m_directory.path() / fmt::format("run.{}", slot);
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
    return with_valgrind_log(std::move(result), log);
  }
  if (problem.empty() && outputs == 0) {
    problem =
        fmt::format("valgrind wrote no cachegrind output; its log: {}", util::trim(util::tail_lines(log, 3)));
  }
  if (!problem.empty()) {
    return count_failed(std::move(result), std::move(problem), log);
  }
  auto values = simulated_values(total, m_cache);
  if (!values) {
    return count_failed(std::move(result), values.error(), log);
  }
  result.simulated = std::move(values).value();
  result.profiles[""] = std::move(profile);
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
