#include "duel/duel.hpp"

#include <array>
#include <chrono>
#include <csignal>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "duel/run_plan.hpp"
#include "run/metric_extractor.hpp"
#include "run/signals.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

const char* side_name(Side side) {
  return side == Side::baseline ? "baseline" : "candidate";
}

// One line saying how a run failed, or empty when it succeeded.
std::string describe_failure(const RunResult& run, double timeout_seconds) {
  switch (run.status) {
    case RunStatus::exited:
      return run.exit_code == 0 ? std::string() : fmt::format("exited with code {}", run.exit_code);
    case RunStatus::signaled:
      return fmt::format("was killed by signal {} ({})", run.signal, ::strsignal(run.signal));
    case RunStatus::timed_out:
      return fmt::format("timed out after {} and was killed (raise \"timeout\" in the config?)",
                         util::format_seconds(timeout_seconds));
    case RunStatus::failed_to_start:
      return fmt::format("could not be started: {}", run.error);
    case RunStatus::interrupted:
      return "was interrupted";
  }
  return "failed";
}

}  // namespace

bool candidate_first(Order order, int round, std::uint64_t seed) {
  if (order == Order::abba) {
    return round % 2 == 1;
  }
  // The coin of round r is a hash of (seed, r) (splitmix64's finaliser), so the order of a
  // round does not depend on how many rounds came before and a report can be checked
  // against its seed; it costs nothing per round.
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(round) + 1);
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return (x >> 63U) != 0;
}

DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress) {
  return run_duel(config, executor, nullptr, seed, progress);
}

DuelOutcome run_duel(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed,
                     const ProgressCallback& progress) {
  DuelOutcome outcome;
  outcome.seed = seed;
  const MetricExtractor extractor(config.metrics);
  const RunPlan plan = plan_runs(config);
  const RunLimits limits{config.run_timeout, config.cpus, plan.counters};
  if (plan.valgrind && simulator == nullptr) {
    throw Error("valgrind metrics need a Valgrind executor");  // a wiring mistake, not a user error
  }
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  double longest_round = 0;
  double analysis_seconds = 0;
  double run_seconds = 0;  // wall time of all runs so far

  for (int round = 0;; ++round) {
    const bool warmup = round < config.warmup;
    const int measured = round - config.warmup;
    if (!warmup) {
      if (measured >= config.max_rounds) {
        outcome.end = DuelEnd::round_budget;
        break;
      }
      // Stop before a round that would overrun the time budget, not after it.
      if (elapsed() + longest_round > config.max_seconds) {
        outcome.end = DuelEnd::time_budget;
        break;
      }
    }
    const auto round_start = elapsed();
    const bool b_first = candidate_first(config.order, std::max(measured, 0), seed);
    bool failed = false;
    // The plain runs of both sides, then the Valgrind runs in the same order (duel/run_plan.hpp).
    const std::array<Side, 2> order{b_first ? Side::candidate : Side::baseline,
                                    b_first ? Side::baseline : Side::candidate};
    std::array<RunResult, 2> results;  // by side: baseline, candidate
    for (const bool simulated : {false, true}) {
      if (failed || (simulated ? !plan.valgrind : !plan.plain)) {
        continue;
      }
      for (const Side side : order) {
        const auto& command = side == Side::baseline ? *config.baseline : *config.candidate;
        RunResult result = simulated ? simulator->run(command, limits) : executor.run(command, limits);
        if (result.status == RunStatus::interrupted || interrupt_requested()) {
          outcome.end = DuelEnd::interrupted;
          failed = true;
          break;
        }
        const auto cause =
            describe_failure(result, config.run_timeout * (simulated ? k_valgrind_slowdown : 1));
        if (!cause.empty()) {
          outcome.end = DuelEnd::benchmark_failed;
          outcome.failure =
              fmt::format("{} run{} in round {}{}: {}", side_name(side), simulated ? " under valgrind" : "",
                          round + 1, warmup ? " (warm-up)" : "", cause);
          outcome.failure_stderr = util::tail_lines(result.err, 10);
          failed = true;
          break;
        }
        run_seconds += result.wall_seconds;
        auto& slot = results[side == Side::baseline ? 0 : 1];
        if (simulated && plan.plain) {
          slot.simulated = std::move(result.simulated);  // the rest comes from the plain run
        } else {
          slot = std::move(result);
        }
        if (!simulated && plan.valgrind) {
          continue;  // the side's values are complete after its Valgrind run
        }
        // Recorded as soon as the side is complete, so a failure later in the round keeps it.
        auto extracted = extractor.extract(slot);
        if (!extracted) {
          outcome.end = DuelEnd::benchmark_failed;
          outcome.failure = fmt::format("{} run in round {}{}: {}", side_name(side), round + 1,
                                        warmup ? " (warm-up)" : "", extracted.error());
          outcome.failure_stderr = util::tail_lines(slot.err, 10);
          failed = true;
          break;
        }
        outcome.runs.push_back({round, side, warmup, std::move(extracted).value()});
      }
    }
    if (failed) {
      break;
    }
    longest_round = std::max(longest_round, elapsed() - round_start);
    if (warmup) {
      continue;
    }
    // Re-analysing costs O(rounds); for a benchmark of a few hundred microseconds that
    // would grow into a measurable share of the duel. Analyse only while the time spent on
    // it stays under 2 % of the time the runs took: the stopping decision may come a few
    // rounds late, never early, and the final analysis below always sees every round.
    if (analysis_seconds > 0.02 * run_seconds && measured + 1 < config.max_rounds) {
      continue;
    }
    try {
      const auto analysis_start = elapsed();
      const auto analysis = analyze(config, outcome.runs, Finality::ongoing);
      analysis_seconds += elapsed() - analysis_start;
      if (progress) {
        progress(analysis, elapsed());
      }
      if (analysis.can_stop) {
        outcome.end = analysis.stop;
        break;
      }
    } catch (const Error& e) {
      outcome.end = DuelEnd::benchmark_failed;
      outcome.failure = e.what();
      break;
    }
  }

  outcome.elapsed_seconds = elapsed();
  try {
    outcome.analysis = analyze(config, outcome.runs, Finality::final);
  } catch (const Error& e) {
    outcome.end = DuelEnd::benchmark_failed;
    outcome.failure = e.what();
  }
  return outcome;
}

}  // namespace perfduel
