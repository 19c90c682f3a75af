#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "duel/program_sizes.hpp"
#include "duel/run_plan.hpp"
#include "run/executor.hpp"
#include "run/metric_extractor.hpp"

namespace perfduel {

// Whether a round is one of the warm-up's (its runs recorded, not analysed) or a measured one.
enum class Phase { warmup, measured };

// One round of a duel: `index` counts from 0, warm-up included.
struct RoundId {
  int index = 0;
  Phase phase = Phase::measured;
};

// Which side runs first in a round.
enum class FirstSide { baseline, candidate };

// A run as plain (timed, with its PERFDUEL_PAD) or under Valgrind (counted, no padding).
enum class RunKind { plain, counted };

// The state of a duel between rounds, and the steps of one round: the runs each side needs, their
// failures (retried while Config::retries allows), the benchmark patterns expanded from the first
// complete round, and the values read from every completed side into the outcome.
class DuelRounds {
 public:
  // `config` with baseline and candidate commands; `simulator` makes the Valgrind runs (required
  // when the configuration has counted metrics); `seed` fixes the order coins and paddings.
  // Throws perfduel::Error for a duet without two CPUs, or counted metrics without `simulator`.
  DuelRounds(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed);

  // Plays round `round`, `first` running first: every run it needs, then the values of each
  // completed side. False when the duel must end (failure or interrupt, in the outcome).
  bool play_round(RoundId round, FirstSide first);

  // Re-pins the measured rounds once the warm-up has shown how many CPUs the program keeps busy
  // (`callback`, RepinCallback). A suite's parallelism is the whole binary's, so a benchmark that
  // runs threads among many that do not would be left one CPU; its name says how many it runs.
  void repin(const RepinCallback& callback);

  // Once every gated metric has its minimum rounds (before, σ says little: three rounds can put
  // it anywhere), says once, early, which thresholds the budget cannot settle (budget_note), not at
  // its end: into the outcome and to `on_note`. `done` measured rounds took `elapsed_seconds` and
  // gave `analysis`.
  void judge_budget(const Analysis& analysis, int done, double elapsed_seconds, const NoteCallback& on_note);

  const Config& config() const { return m_config; }
  const Config& effective() const { return m_effective; }
  double run_seconds() const { return m_run_seconds; }
  // Whether rounds run the programs: not for binary_size alone, read from the files.
  bool runs_programs() const { return m_plan.plain || m_plan.valgrind; }
  const ProgramSizes& sizes() const { return m_sizes; }
  DuelOutcome& outcome() { return m_outcome; }

 private:
  // Whether playing a failed round again could help (a flaky run) or not (a program that cannot
  // start, benchmarks that do not match).
  enum class Retry { allowed, refused };

  // A side whose runs of the round are all done: its merged result (the plain run's, with the
  // Valgrind run's counts), ready for its metrics to be read.
  struct CompletedSide {
    Side side = Side::baseline;
    RunResult result;
  };

  // What the runs of one round have given so far: each side's result (baseline, candidate), and
  // the sides whose runs are all done, in the order they finished.
  struct RoundRuns {
    std::array<RunResult, 2> by_side;
    std::vector<CompletedSide> completed;
  };

  void fail(Side side, const std::string& what, RoundId round, const std::string& cause,
            const RunResult& result, Retry retry);
  void fail_reading(Side side, RoundId round, const std::string& cause, const RunResult& result, Retry retry);
  void stop_interrupted();
  void forget_round(int round);
  std::vector<CompletedSide> run_round(RoundId round, const std::array<Side, 2>& order);
  bool accept(Side side, RunKind kind, RoundId round, RunResult run, RoundRuns& runs);
  std::array<RunResult, 2> run_pair(int round);
  std::array<RunResult, 2> run_counted_pair();
  void run_alone(int round);
  RunLimits padded_limits(std::optional<int> cpu);
  RunResult run_once(Side side, RunKind kind);
  void expand_patterns(RoundId round, const std::vector<CompletedSide>& completed);
  void set_aside_unmeasurable(RoundId round, const RunResult& baseline, const RunResult& candidate);
  void record_values(RoundId round, const std::vector<CompletedSide>& completed);

  const Config& m_config;
  Config m_effective;  // the configuration with benchmark patterns expanded
  Executor& m_executor;
  Executor* m_simulator;
  RunPlan m_plan;
  RunLimits m_limits;
  std::uint64_t m_seed;
  ProgramSizes m_sizes;
  std::uint64_t m_run_index = 0;
  std::optional<MetricExtractor> m_extractor;
  DuelOutcome m_outcome;
  bool m_failed = false;
  bool m_retryable = false;                 // whether the failure in the outcome may be retried
  bool m_budget_judged = false;             // judge_budget has judged (it does once)
  double m_run_seconds = 0;                 // wall time of all runs so far
  std::array<int, 2> m_round_cpus{-1, -1};  // duet: the CPUs of this round's baseline and candidate
};

}  // namespace perfduel
