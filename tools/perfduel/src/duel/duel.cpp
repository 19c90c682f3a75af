#include "duel/duel.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "error.hpp"
#include "run/metric_extractor.hpp"
#include "run/signals.hpp"
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

namespace {

// The PERFDUEL_PAD length of run `run_index`: uniform in [0, k_max_env_padding), a hash of
// (seed, run index) like the order coin, so both sides draw from one distribution, a seed
// reproduces the layouts, and the round order is unaffected.
std::size_t env_padding_bytes(std::uint64_t seed, std::uint64_t run_index) {
  constexpr std::uint64_t k_max_env_padding = 4096;
  std::uint64_t x = (seed ^ 0xD1B54A32D192ED03ULL) + 0x9E3779B97F4A7C15ULL * (run_index + 1);
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return static_cast<std::size_t>(x % k_max_env_padding);
}

}  // namespace

DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin) {
  DuelOutcome outcome;
  outcome.seed = seed;
  // Benchmark patterns become metrics once the first round shows which benchmarks there are;
  // until then nothing can be extracted.
  Config effective = config;
  std::optional<MetricExtractor> extractor;
  if (!has_metric_patterns(effective.metrics)) {
    extractor.emplace(effective.metrics);
  }
  RunLimits limits{config.run_timeout, config.cpus, std::nullopt};
  std::uint64_t run_index = 0;
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
    if (round == config.warmup && repin) {
      limits.cpus = repin(outcome.warmup_parallelism);
    }
    const auto round_start = elapsed();
    const bool b_first = candidate_first(config.order, std::max(measured, 0), seed);
    bool failed = false;
    const auto fail = [&](Side side, const std::string& cause, const RunResult& result) {
      outcome.end = DuelEnd::benchmark_failed;
      outcome.failure = fmt::format("{} run in round {}{}: {}", side_name(side), round + 1,
                                    warmup ? " (warm-up)" : "", cause);
      outcome.failure_stderr = util::tail_lines(result.err, 10);
      failed = true;
    };
    // Both runs first, then their metrics: the first round's two outputs expand the patterns.
    std::vector<std::pair<Side, RunResult>> results;
    for (const Side side :
         {b_first ? Side::candidate : Side::baseline, b_first ? Side::baseline : Side::candidate}) {
      const auto& command = side == Side::baseline ? *config.baseline : *config.candidate;
      if (config.env_padding) {
        limits.env_padding_bytes = env_padding_bytes(seed, run_index);
      }
      ++run_index;
      RunResult result = executor.run(command, limits);
      if (result.status == RunStatus::interrupted || interrupt_requested()) {
        outcome.end = DuelEnd::interrupted;
        failed = true;
        break;
      }
      if (const auto cause = describe_failure(result, config.run_timeout); !cause.empty()) {
        fail(side, cause, result);
        break;
      }
      run_seconds += result.wall_seconds;
      if (warmup && result.wall_seconds > 0) {
        outcome.warmup_parallelism = std::max(
            outcome.warmup_parallelism, (result.user_seconds + result.system_seconds) / result.wall_seconds);
      }
      results.emplace_back(side, std::move(result));
    }
    if (!failed && !extractor) {
      const bool baseline_first = results[0].first == Side::baseline;
      const RunResult& baseline_run = results[baseline_first ? 0 : 1].second;
      const RunResult& candidate_run = results[baseline_first ? 1 : 0].second;
      auto expansion = expand_metric_patterns(effective.metrics, baseline_run.out, candidate_run.out);
      if (expansion && std::none_of(expansion->metrics.begin(), expansion->metrics.end(),
                                    [](const MetricSpec& m) { return m.gating == Gating::gated; })) {
        expansion = util::Expected<MetricExpansion>::failure(
            "no gated benchmark runs on both sides (every one the patterns matched is new or removed)");
      }
      if (!expansion) {
        fail(Side::baseline, expansion.error(), baseline_run);
        outcome.failure =
            fmt::format("round {}{}: {}", round + 1, warmup ? " (warm-up)" : "", expansion.error());
      } else {
        effective.metrics = std::move(expansion->metrics);
        outcome.suite = std::move(expansion->changes);
        extractor.emplace(effective.metrics);
      }
    }
    // A run that finished before the other side failed is still recorded, for the report.
    for (auto& [side, result] : results) {
      if (!extractor) {
        break;
      }
      auto values = extractor->extract(result);
      if (!values) {
        if (!failed) {
          fail(side, values.error(), result);
        }
        break;
      }
      outcome.runs.push_back({round, side, warmup, std::move(values).value()});
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
      const auto analysis = analyze(effective, outcome.runs, Finality::ongoing);
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
  outcome.metrics = effective.metrics;
  try {
    outcome.analysis = analyze(effective, outcome.runs, Finality::final);
  } catch (const Error& e) {
    outcome.end = DuelEnd::benchmark_failed;
    outcome.failure = e.what();
  }
  return outcome;
}

}  // namespace perfduel
