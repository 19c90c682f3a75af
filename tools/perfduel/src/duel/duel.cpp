#include "duel/duel.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "duel/calibration.hpp"
#include "duel/duel_rounds.hpp"
#include "duel/run_order.hpp"
#include "error.hpp"

namespace perfduel {

namespace {

// Futility: when no open metric can settle within the budget at the rate so far, the rest
// of the budget would only end inconclusive later. Judged from the sequence's burn-in and
// a fifth of the budget on, so that one wild round early on cannot end the duel. `done`
// measured rounds took `elapsed_seconds` (warm-up included) and gave `analysis`.
bool stops_as_futile(const Config& config, const Analysis& analysis, int done, double elapsed_seconds) {
  const double budget = budget_rounds(config, done > 0 ? elapsed_seconds / done : 0.0);
  return done >= std::max(config.min_rounds, k_sequence_burn_in_rounds) &&
         done >= k_futility_share * budget && budget_is_futile(analysis.fewest_open_projected_rounds, budget);
}

// The budget the next measured round `measured` would overrun: the rounds, or the time when it
// would end after `seconds_after_next` (the elapsed time plus the longest round so far): the duel
// stops before such a round, not after it.
std::optional<DuelEnd> spent_budget(const Config& config, int measured, double seconds_after_next) {
  if (measured >= config.max_rounds) {
    return DuelEnd::round_budget;
  }
  if (seconds_after_next > config.max_seconds) {
    return DuelEnd::time_budget;
  }
  return std::nullopt;
}

// A configuration the analysis refused, or a value it cannot use: the duel ends as failed, with
// the error's message and exit code.
void end_by_error(DuelOutcome& outcome, const Error& error) {
  outcome.end = DuelEnd::benchmark_failed;
  outcome.failure = error.what();
  outcome.failure_code = error.exit_code();
}

// When the analysis after a measured round ends the duel: a settled verdict, futility, or a spent
// budget; once a regression has settled while other gated metrics still look like regressions,
// the duel plays naming_rounds more to name them.
class DuelStopping {
 public:
  DuelStopping(const Config& config, const NoteCallback& on_note) : m_config(config), m_on_note(on_note) {}

  // How the duel ends when the budget `spent` runs out: as the regression did while naming the
  // other regressions, else as spent.
  DuelEnd at_spent_budget(DuelEnd spent) const { return m_naming ? DuelEnd::regression_found : spent; }

  // After measured round `measured` (from 0), at `elapsed_seconds`, with `analysis`: the end, or
  // none to play on. Judges the budget's note once (DuelRounds::judge_budget).
  std::optional<DuelEnd> after_round(DuelRounds& duel, const Analysis& analysis, int measured,
                                     double elapsed_seconds) {
    duel.judge_budget(analysis, measured + 1, elapsed_seconds, m_on_note);
    if (analysis.can_stop && analysis.stop == DuelEnd::regression_found &&
        analysis.open_likely_regressions > 0) {
      if (!m_naming) {
        m_naming = true;
        m_naming_until = measured + naming_rounds(measured + 1);
      }
      if (measured < m_naming_until) {
        return std::nullopt;  // the gate fails whatever comes; the rounds go to naming the others
      }
    }
    if (analysis.can_stop) {
      return analysis.stop;
    }
    if (stops_as_futile(m_config, analysis, measured + 1, elapsed_seconds)) {
      return DuelEnd::futile;
    }
    return std::nullopt;
  }

 private:
  const Config& m_config;
  const NoteCallback& m_on_note;
  bool m_naming = false;   // a regression has settled, the others are being named
  int m_naming_until = 0;  // the last round for the others, while m_naming
};

// What run_duel passes on to the loop of its rounds.
struct DuelCallbacks {
  const ProgressCallback& progress;
  const RepinCallback& repin;
  const NoteCallback& on_note;
};

// Plays the rounds of `duel` until it ends, into its outcome: `elapsed` says the seconds since it
// started; the order's coins come from `seed`.
void play_rounds(DuelRounds& duel, std::uint64_t seed, const std::function<double()>& elapsed,
                 const DuelCallbacks& callbacks) {
  const Config& config = duel.config();
  DuelOutcome& outcome = duel.outcome();
  double longest_round = 0;
  double analysis_seconds = 0;
  DuelStopping stopping(config, callbacks.on_note);
  for (int round = 0;; ++round) {
    const bool warmup = round < config.warmup;
    const int measured = round - config.warmup;
    if (!warmup) {
      if (const auto spent = spent_budget(config, measured, elapsed() + longest_round)) {
        outcome.end = stopping.at_spent_budget(*spent);
        return;
      }
    }
    if (round == config.warmup && callbacks.repin) {
      duel.repin(callbacks.repin);
    }
    const auto round_start = elapsed();
    const auto first = candidate_first(config.order, std::max(measured, 0), seed) ? FirstSide::candidate
                                                                                  : FirstSide::baseline;
    if (!duel.play_round({round, warmup ? Phase::warmup : Phase::measured}, first)) {
      return;
    }
    longest_round = std::max(longest_round, elapsed() - round_start);
    // Re-analysing costs O(rounds); for a benchmark of a few hundred microseconds that
    // would grow into a measurable share of the duel. Analyse only while the time spent on
    // it stays under 2 % of the time the runs took: the stopping decision may come a few
    // rounds late, never early, and the final analysis below always sees every round.
    // Rounds that run nothing (binary_size alone) are analysed every time.
    if (warmup || (duel.runs_programs() && analysis_seconds > 0.02 * duel.run_seconds() &&
                   measured + 1 < config.max_rounds)) {
      continue;
    }
    try {
      const auto analysis_start = elapsed();
      const auto analysis = analyze(duel.effective(), outcome.runs, Finality::ongoing);
      analysis_seconds += elapsed() - analysis_start;
      if (callbacks.progress) {
        callbacks.progress(analysis, elapsed());
      }
      if (const auto end = stopping.after_round(duel, analysis, measured, elapsed())) {
        outcome.end = *end;
        return;
      }
    } catch (const Error& e) {
      end_by_error(outcome, e);
      return;
    }
  }
}

}  // namespace

int naming_rounds(int settled_at) {
  return std::clamp(settled_at, 10, 50);
}

DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin,
                     const NoteCallback& on_note) {
  return run_duel(config, executor, nullptr, seed, progress, repin, on_note);
}

DuelOutcome run_duel(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin,
                     const NoteCallback& on_note) {
  DuelRounds duel(config, executor, simulator, seed);
  DuelOutcome& outcome = duel.outcome();
  // The executor's clock: the steady clock for real runs, a scripted one in tests.
  const double start = executor.now_seconds();
  const auto elapsed = [&] { return executor.now_seconds() - start; };
  play_rounds(duel, seed, elapsed, {progress, repin, on_note});

  outcome.elapsed_seconds = elapsed();
  outcome.metrics = duel.effective().metrics;
  try {
    outcome.analysis = analyze(duel.effective(), outcome.runs, Finality::final);
    outcome.explanations = explain_counted_metrics(outcome.analysis, outcome.profiles);
    duel.sizes().note_growth(outcome.analysis, outcome.notes);
  } catch (const Error& e) {
    end_by_error(outcome, e);
  }
  return std::move(outcome);
}

DuelOutcome run_duel_unless_identical(const Config& config, Executor& executor, Executor* simulator,
                                      std::uint64_t seed, const ProgressCallback& progress,
                                      const RepinCallback& repin, const NoteCallback& on_note) {
  const double start = executor.now_seconds();
  ProgramComparison programs = compare_programs(config, executor);
  if (programs.result != ProgramsCompared::identical) {
    DuelOutcome outcome = run_duel(config, executor, simulator, seed, progress, repin, on_note);
    outcome.programs = std::move(programs);
    return outcome;
  }
  DuelOutcome outcome;
  outcome.metrics = config.metrics;
  outcome.analysis = analyze_identical(config);
  outcome.end = DuelEnd::identical;
  outcome.seed = seed;
  outcome.programs = std::move(programs);
  outcome.elapsed_seconds = executor.now_seconds() - start;
  return outcome;
}

}  // namespace perfduel
