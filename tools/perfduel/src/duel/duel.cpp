#include "duel/duel.hpp"

#include <algorithm>
#include <array>
#include <csignal>
#include <optional>

#include <fmt/format.h>

#include "duel/calibration.hpp"
#include "duel/program_sizes.hpp"
#include "duel/run_failure.hpp"
#include "duel/run_order.hpp"
#include "duel/run_plan.hpp"
#include "error.hpp"
#include "run/benchmark_names.hpp"
#include "run/metric_extractor.hpp"
#include "run/signals.hpp"
#include "run/valgrind.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// The lines shown from each end of a run's stdout when a metric could not be read from it.
constexpr std::size_t k_excerpt_edge_lines = 8;
// The last lines of stderr and of stdout shown when a run failed.
constexpr std::size_t k_tail_lines = 10;

// The rounds the budget allows at the rate so far: `done` measured rounds in `elapsed_seconds`.
double budget_rounds_so_far(const Config& config, int done, double elapsed_seconds) {
  return budget_rounds(config, done > 0 ? elapsed_seconds / done : 0.0);
}

// Whether a failure may be retried (Config::retries).
enum class Retry { allowed, refused };

// A side whose runs of the round are all done: its merged result (the plain run's, with the
// Valgrind run's counts), ready for its metrics to be read.
struct CompletedSide {
  Side side = Side::baseline;
  RunResult result;
};

// The state of a duel between rounds, and the steps of one round.
class Duel {
 public:
  Duel(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed)
      : m_config(config),
        m_effective(config),
        m_executor(executor),
        m_simulator(simulator),
        m_plan(plan_runs(config)),
        m_limits{config.run_timeout, config.cpus, std::nullopt, m_plan.counters},
        m_seed(seed),
        m_sizes(config) {
    if (m_plan.valgrind && simulator == nullptr) {
      throw Error("valgrind metrics need a Valgrind executor");  // a wiring mistake, not a user error
    }
    if (is_duet(config.order) && config.cpus.size() != 2) {
      throw Error(
          fmt::format("order: duet runs each side on a CPU of its own and needs two, not {} (cpus: {})",
                      config.cpus.size(), fmt::join(config.cpus, ",")),
          ExitCode::usage);
    }
    // Benchmark patterns become metrics once the first round shows which benchmarks there
    // are; until then nothing can be extracted.
    if (!has_metric_patterns(m_effective.metrics)) {
      m_extractor.emplace(m_effective.metrics);
    }
    m_outcome.seed = seed;
  }

  // One round (`round` counts from 0, warm-up included): every run it needs, then the values
  // of each completed side. False when the duel must end (failure or interrupt, in the outcome).
  bool play_round(int round, bool warmup, bool candidate_first_in_round) {
    const std::array<Side, 2> order{candidate_first_in_round ? Side::candidate : Side::baseline,
                                    candidate_first_in_round ? Side::baseline : Side::candidate};
    for (;;) {
      const auto completed = run_round(round, warmup, order);
      if (!m_failed && !m_extractor) {
        expand_patterns(round, warmup, completed);
      }
      record_values(round, warmup, completed);
      if (!m_failed && warmup && round == m_config.warmup - 1 && is_duet(m_config.order) && m_plan.plain) {
        run_alone(round);
      }
      if (!m_failed || !m_retryable || static_cast<int>(m_outcome.retried.size()) >= m_config.retries) {
        return !m_failed;
      }
      forget_round(round);
    }
  }

  // Re-pins the measured rounds once the warm-up has shown how many CPUs the program keeps busy.
  // A suite's parallelism is the whole binary's, so a benchmark that runs threads among many
  // that do not would be left one CPU; its name says how many it runs.
  void repin(const RepinCallback& callback) {
    auto cpus = callback(m_outcome.warmup_parallelism, most_benchmark_threads(m_effective.metrics));
    if (!is_duet(m_config.order) || cpus.size() == 2) {  // a duet keeps its pair
      m_limits.cpus = std::move(cpus);
    }
  }

  // Once every gated metric has its minimum rounds (before, σ says little: three rounds can put
  // it anywhere), says once, early, which thresholds the budget cannot settle (budget_note), not at
  // its end: into the outcome and to `on_note`. `done` measured rounds took `elapsed_seconds` and
  // gave `analysis`.
  void judge_budget(const Analysis& analysis, int done, double elapsed_seconds, const NoteCallback& on_note) {
    const bool ready =
        !m_budget_judged && !analysis.can_stop && analysis.metrics.size() == m_effective.metrics.size() &&
        std::all_of(analysis.metrics.begin(), analysis.metrics.end(),
                    [](const MetricResult& m) { return m.spec.gating != Gating::gated || m.enough_rounds; });
    if (!ready) {
      return;
    }
    m_budget_judged = true;
    if (auto note = budget_note(m_effective, analysis, m_outcome.runs,
                                budget_rounds_so_far(m_config, done, elapsed_seconds))) {
      m_outcome.notes.push_back(*note);
      if (on_note) {
        on_note(*note);
      }
    }
  }

  const Config& effective() const { return m_effective; }
  bool runs_programs() const { return m_plan.plain || m_plan.valgrind; }  // not binary_size alone
  const ProgramSizes& sizes() const { return m_sizes; }
  double run_seconds() const { return m_run_seconds; }
  DuelOutcome& outcome() { return m_outcome; }

 private:
  // `retry` says whether playing the round again could help (a flaky run) or not (a program
  // that cannot start, benchmarks that do not match).
  void fail(Side side, const std::string& what, int round, bool warmup, const std::string& cause,
            const RunResult& result, Retry retry) {
    m_outcome.end = DuelEnd::benchmark_failed;
    m_outcome.failure = describe_run(side, what, round, warmup) + ": " + cause;
    m_outcome.failure_stderr = util::tail_lines(result.err, k_tail_lines);
    // A program that prints its usage or its own error on stdout (many do) says nothing on
    // stderr: show both ends the user might look at.
    m_outcome.failure_stdout = util::tail_lines(result.out, k_tail_lines);
    m_outcome.failure_stdout_read = false;
    m_failed = true;
    m_retryable = retry == Retry::allowed;
  }

  // The failed round is discarded, the failure kept in the outcome's list of retried runs,
  // and the round starts over with both sides.
  void forget_round(int round) {
    m_outcome.retried.push_back(m_outcome.failure);
    auto& runs = m_outcome.runs;
    runs.erase(
        std::remove_if(runs.begin(), runs.end(), [&](const RunRecord& run) { return run.round == round; }),
        runs.end());
    m_outcome.end = DuelEnd::decided;
    m_outcome.failure.clear();
    m_outcome.failure_stderr.clear();
    m_outcome.failure_stdout.clear();
    m_outcome.failure_stdout_read = false;
    m_failed = false;
    m_retryable = false;
  }

  // "candidate run in round 3 (warm-up)": which run, for messages.
  static std::string describe_run(Side side, const std::string& what, int round, bool warmup) {
    return fmt::format("{} run{} in round {}{}", util::name_of(k_side_names, side), what, round + 1,
                       warmup ? " (warm-up)" : "");
  }

  // A metric could not be read from `result`: the cause, with the stdout it was looked for in
  // (its stderr only when stdout is empty).
  void fail_reading(Side side, int round, bool warmup, const std::string& cause, const RunResult& result,
                    Retry retry) {
    fail(side, "", round, warmup, cause, result, retry);
    if (!result.out.empty()) {
      m_outcome.failure_stdout = util::excerpt_lines(result.out, k_excerpt_edge_lines);
      m_outcome.failure_stdout_read = true;
      m_outcome.failure_stderr.clear();
    }
  }

  // The plain runs of both sides, then the Valgrind runs in the same order (duel/run_plan.hpp):
  // the plain runs back to back so that drift cancels in their ratio, or in duet at the same
  // time; the Valgrind runs at the same time when there are two CPUs (a count does not depend
  // on contention), unless a Google Benchmark suite's counting runs two processes a side.
  // Returns the sides whose runs all finished, in the order they finished.
  std::vector<CompletedSide> run_round(int round, bool warmup, const std::array<Side, 2>& order) {
    const bool counts_together =
        m_limits.cpus.size() >= 2 && m_plan.framework != BenchmarkFramework::google_benchmark;
    std::array<RunResult, 2> results;  // by side: baseline, candidate
    std::vector<CompletedSide> completed;
    // One finished run of `side`: false when the round cannot go on.
    const auto accept = [&](Side side, bool simulated, RunResult run) {
      if (run.status == RunStatus::interrupted || interrupt_requested()) {
        m_outcome.end = DuelEnd::interrupted;
        m_failed = true;
        m_retryable = false;
        return false;
      }
      if (run.left_behind > 0) {
        if (m_outcome.left_behind == 0) {
          m_outcome.left_behind_first = describe_run(side, simulated ? " under valgrind" : "", round, warmup);
        }
        m_outcome.left_behind += run.left_behind;
      }
      const auto cause = describe_failure(run, m_config.run_timeout * (simulated ? k_valgrind_slowdown : 1));
      if (!cause.empty()) {
        fail(side, simulated ? " under valgrind" : "", round, warmup, cause, run,
             run.status == RunStatus::failed_to_start ? Retry::refused : Retry::allowed);
        return false;
      }
      m_run_seconds += run.wall_seconds;
      if (!simulated && warmup && run.wall_seconds > 0) {
        m_outcome.warmup_parallelism = std::max(m_outcome.warmup_parallelism,
                                                (run.user_seconds + run.system_seconds) / run.wall_seconds);
      }
      auto& slot = results[side == Side::baseline ? 0 : 1];
      if (simulated && m_plan.plain) {
        // The counts come from the run under valgrind (the process's or each benchmark's), the
        // rest from the plain run.
        slot.simulated = std::move(run.simulated);
        slot.simulated_benchmarks = std::move(run.simulated_benchmarks);
        slot.uncountable = std::move(run.uncountable);
        slot.profiles = std::move(run.profiles);
      } else {
        slot = std::move(run);
      }
      if (simulated || !m_plan.valgrind) {
        completed.push_back({side, slot});
      }
      return true;
    };
    for (const bool simulated : {false, true}) {
      if (m_failed || (simulated ? !m_plan.valgrind : !m_plan.plain)) {
        continue;
      }
      if (simulated ? counts_together : is_duet(m_config.order)) {
        auto pair = simulated ? run_counted_pair() : run_pair(round);
        // The baseline's result first, as the pair has no order; a failure of both names the baseline.
        if (accept(Side::baseline, simulated, std::move(pair[0]))) {
          accept(Side::candidate, simulated, std::move(pair[1]));
        }
        continue;
      }
      for (const Side side : order) {
        if (!accept(side, simulated, run_once(side, simulated))) {
          break;
        }
      }
    }
    if (!runs_programs()) {  // binary_size alone: read from the files, nothing runs
      RunResult read;
      read.status = RunStatus::exited;
      read.exit_code = 0;
      completed = {{order[0], read}, {order[1], read}};
    }
    for (auto& [side, result] : completed) {
      result.program_bytes = m_sizes.bytes(side);
    }
    return completed;
  }

  // Both plain runs at once on the duet's two CPUs (m_limits.cpus), each pinned to one, which
  // one by duet_candidate_on_second. Records the CPU each side had in m_round_cpus.
  std::array<RunResult, 2> run_pair(int round) {
    const bool candidate_second =
        duet_candidate_on_second(m_config.order, std::max(round - m_config.warmup, 0), m_seed);
    const int first = m_limits.cpus.at(0);
    const int second = m_limits.cpus.at(1);
    m_round_cpus = {candidate_second ? first : second, candidate_second ? second : first};
    std::array<RunLimits, 2> limits{m_limits, m_limits};
    for (std::size_t i = 0; i < 2; ++i) {
      limits[i].cpus = {m_round_cpus[i]};
      limits[i].env_padding_bytes = next_padding();
    }
    // Which of the two is started first, woken first and read first is the round's order coin:
    // whatever that order does to a run falls on either side alike instead of on one.
    if (!candidate_first(Order::random, round, m_seed)) {
      return m_executor.run_together({&*m_config.baseline, &*m_config.candidate}, limits);
    }
    auto results =
        m_executor.run_together({&*m_config.candidate, &*m_config.baseline}, {limits[1], limits[0]});
    std::swap(results[0], results[1]);
    return results;
  }

  // Both sides' Valgrind runs at once, each on one of the first two CPUs, without PERFDUEL_PAD.
  std::array<RunResult, 2> run_counted_pair() {
    std::array<RunLimits, 2> limits{m_limits, m_limits};
    for (std::size_t i = 0; i < 2; ++i) {
      limits[i].cpus = {m_limits.cpus[i]};
      limits[i].env_padding_bytes.reset();
    }
    return m_simulator->run_together({&*m_config.baseline, &*m_config.candidate}, limits);
  }

  // Order duet, after the last warm-up round: each side once more, alone on the CPU it had, so
  // that the analysis can tell how much the two slow each other when they run together.
  void run_alone(int round) {
    for (const Side side : {Side::baseline, Side::candidate}) {
      const std::size_t index = side == Side::baseline ? 0 : 1;
      RunLimits limits = m_limits;
      limits.cpus = {m_round_cpus[index]};
      limits.env_padding_bytes = next_padding();
      const auto& command = side == Side::baseline ? *m_config.baseline : *m_config.candidate;
      const RunResult run = m_executor.run(command, limits);
      if (run.status == RunStatus::interrupted || interrupt_requested()) {
        m_outcome.end = DuelEnd::interrupted;
        m_failed = true;
        m_retryable = false;
        return;
      }
      if (const auto cause = describe_failure(run, m_config.run_timeout); !cause.empty()) {
        fail(side, " (alone)", round, true, cause, run, Retry::allowed);
        return;
      }
      auto values = m_extractor->extract(run);
      if (!values) {
        fail_reading(side, round, true, values.error(), run, Retry::allowed);
        return;
      }
      m_outcome.runs.push_back({round, side, true, std::move(values).value(), m_round_cpus[index], true});
    }
  }

  // The PERFDUEL_PAD length of the next plain run (none when padding is off); counts the run.
  std::optional<std::size_t> next_padding() {
    const auto index = m_run_index++;
    return m_config.env_padding ? std::optional(env_padding_bytes(m_seed, index)) : std::nullopt;
  }

  // One run of `side`; a plain run gets its PERFDUEL_PAD (the layout it randomizes matters for
  // time, not for counts, so Valgrind runs get none).
  RunResult run_once(Side side, bool simulated) {
    const auto& command = side == Side::baseline ? *m_config.baseline : *m_config.candidate;
    if (simulated) {
      RunLimits limits = m_limits;
      limits.env_padding_bytes.reset();
      return m_simulator->run(command, limits);
    }
    m_limits.env_padding_bytes = next_padding();
    return m_executor.run(command, m_limits);
  }

  // The first complete round's two outputs expand the benchmark patterns into metrics.
  void expand_patterns(int round, bool warmup, const std::vector<CompletedSide>& completed) {
    if (completed.size() != 2) {
      return;
    }
    const bool baseline_first = completed[0].side == Side::baseline;
    const RunResult& baseline_run = completed[baseline_first ? 0 : 1].result;
    const RunResult& candidate_run = completed[baseline_first ? 1 : 0].result;
    auto expansion = expand_metric_patterns(m_effective.metrics, baseline_run.out, candidate_run.out);
    if (expansion) {
      set_aside_uncountable(expansion.value(), baseline_run.uncountable, candidate_run.uncountable);
      set_aside_allocation_free(expansion.value(), baseline_run.simulated_benchmarks,
                                candidate_run.simulated_benchmarks);
    }
    if (expansion && std::none_of(expansion->metrics.begin(), expansion->metrics.end(),
                                  [](const MetricSpec& m) { return m.gating == Gating::gated; })) {
      const auto& uncountable = expansion->changes.uncountable;
      std::string why =
          uncountable.empty()
              ? "no gated benchmark runs on both sides (every one the patterns matched is new or removed)"
              : fmt::format("no gated benchmark can be counted ({}: {})", uncountable.begin()->first,
                            uncountable.begin()->second);
      expansion = util::Expected<MetricExpansion>::failure(std::move(why));
    }
    if (!expansion) {
      fail_reading(Side::baseline, round, warmup, expansion.error(), baseline_run, Retry::refused);
      m_outcome.failure =
          fmt::format("round {}{}: {}", round + 1, warmup ? " (warm-up)" : "", expansion.error());
      return;
    }
    MetricExpansion expanded = std::move(expansion).value();
    m_effective.metrics = std::move(expanded.metrics);
    m_outcome.suite = std::move(expanded.changes);
    m_extractor.emplace(m_effective.metrics);
    set_aside_unmeasurable(round, warmup, baseline_run, candidate_run);
  }

  // Benchmarks that measure nothing in the first round of both sides (is_unmeasurable) are
  // reported, not gated: a loop the compiler emptied would keep the duel waiting on timer noise.
  void set_aside_unmeasurable(int round, bool warmup, const RunResult& baseline, const RunResult& candidate) {
    const auto a = m_extractor->extract(baseline);
    const auto b = m_extractor->extract(candidate);
    if (!a || !b) {
      return;  // record_values reports what could not be read
    }
    bool any_gated = false;
    for (std::size_t m = 0; m < m_effective.metrics.size(); ++m) {
      MetricSpec& metric = m_effective.metrics[m];
      if (metric.gating == Gating::gated && is_unmeasurable(metric, (*a)[m], (*b)[m])) {
        metric.gating = Gating::report_only;
        m_outcome.suite.unmeasurable.push_back(metric.name);
      }
      any_gated |= metric.gating == Gating::gated;
    }
    if (!any_gated) {
      fail_reading(
          Side::baseline, round, warmup,
          "no gated metric measures anything: every gated benchmark reads below 0.01 ns per iteration "
          "on both sides (is its work optimized away? benchmark::DoNotOptimize keeps it)",
          baseline, Retry::refused);
    }
  }

  // Each completed side's values, recorded even when a later run of the round failed.
  void record_values(int round, bool warmup, const std::vector<CompletedSide>& completed) {
    if (!m_extractor) {
      return;
    }
    for (const auto& [side, result] : completed) {
      auto values = m_extractor->extract(result);
      if (!values) {
        if (!m_failed) {
          fail_reading(side, round, warmup,
                       result.out_truncated
                           ? fmt::format("{} (stdout was cut at {} MiB)", values.error(), k_max_stdout_mib)
                           : values.error(),
                       result, Retry::allowed);
        }
        return;
      }
      m_outcome.runs.push_back({round, side, warmup, std::move(values).value(),
                                is_duet(m_config.order) ? m_round_cpus[side == Side::baseline ? 0 : 1] : -1});
      for (const auto& [name, profile] : result.profiles) {  // the last round's count for each
        m_outcome.profiles[name][side == Side::baseline ? 0 : 1] = profile;
      }
    }
  }

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

// Futility: when no open metric can settle within the budget at the rate so far, the rest
// of the budget would only end inconclusive later. Judged from the sequence's burn-in and
// a fifth of the budget on, so that one wild round early on cannot end the duel. `done`
// measured rounds took `elapsed_seconds` (warm-up included) and gave `analysis`.
bool stops_as_futile(const Config& config, const Analysis& analysis, int done, double elapsed_seconds) {
  const double budget = budget_rounds_so_far(config, done, elapsed_seconds);
  return done >= std::max(config.min_rounds, k_sequence_burn_in_rounds) &&
         done >= k_futility_share * budget && budget_is_futile(analysis.fewest_open_projected_rounds, budget);
}

}  // namespace

namespace {

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
  Duel duel(config, executor, simulator, seed);
  DuelOutcome& outcome = duel.outcome();
  // The executor's clock: the steady clock for real runs, a scripted one in tests.
  const double start = executor.now_seconds();
  const auto elapsed = [&] { return executor.now_seconds() - start; };
  double longest_round = 0;
  double analysis_seconds = 0;
  std::optional<int> naming_until;  // once a regression settled: the last round for the others

  for (int round = 0;; ++round) {
    const bool warmup = round < config.warmup;
    const int measured = round - config.warmup;
    if (!warmup) {
      if (const auto spent = spent_budget(config, measured, elapsed() + longest_round)) {
        // A spent budget while naming the other regressions ends the duel as the regression did.
        outcome.end = naming_until ? DuelEnd::regression_found : *spent;
        break;
      }
    }
    if (round == config.warmup && repin) {
      duel.repin(repin);
    }
    const auto round_start = elapsed();
    if (!duel.play_round(round, warmup, candidate_first(config.order, std::max(measured, 0), seed))) {
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
    if (duel.runs_programs() && analysis_seconds > 0.02 * duel.run_seconds() &&
        measured + 1 < config.max_rounds) {
      continue;
    }
    try {
      const auto analysis_start = elapsed();
      const auto analysis = analyze(duel.effective(), outcome.runs, Finality::ongoing);
      analysis_seconds += elapsed() - analysis_start;
      if (progress) {
        progress(analysis, elapsed());
      }
      duel.judge_budget(analysis, measured + 1, elapsed(), on_note);
      if (analysis.can_stop && analysis.stop == DuelEnd::regression_found &&
          analysis.open_likely_regressions > 0) {
        naming_until = naming_until.value_or(measured + naming_rounds(measured + 1));
        if (measured < *naming_until) {
          continue;  // the gate fails whatever comes; the rounds go to naming the others
        }
      }
      if (analysis.can_stop) {
        outcome.end = analysis.stop;
        break;
      }
      if (stops_as_futile(config, analysis, measured + 1, elapsed())) {
        outcome.end = DuelEnd::futile;
        break;
      }
    } catch (const Error& e) {
      outcome.end = DuelEnd::benchmark_failed;
      outcome.failure = e.what();
      outcome.failure_code = e.exit_code();
      break;
    }
  }

  outcome.elapsed_seconds = elapsed();
  outcome.metrics = duel.effective().metrics;
  try {
    outcome.analysis = analyze(duel.effective(), outcome.runs, Finality::final);
    outcome.explanations = explain_counted_metrics(outcome.analysis, outcome.profiles);
    duel.sizes().note_growth(outcome.analysis, outcome.notes);
  } catch (const Error& e) {
    outcome.end = DuelEnd::benchmark_failed;
    outcome.failure = e.what();
    outcome.failure_code = e.exit_code();
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
