#include "duel/duel_rounds.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "count/valgrind.hpp"
#include "duel/calibration.hpp"
#include "duel/run_failure.hpp"
#include "duel/run_order.hpp"
#include "error.hpp"
#include "run/benchmark_names.hpp"
#include "run/signals.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// The lines shown from each end of a run's stdout when a metric could not be read from it.
constexpr std::size_t k_excerpt_edge_lines = 8;
// The last lines of stderr and of stdout shown when a run failed.
constexpr std::size_t k_tail_lines = 10;

// "candidate run in round 3 (warm-up)": which run (`what` after "run"), for messages.
std::string describe_run(Side side, const std::string& what, RoundId round) {
  return fmt::format("{} run{} in round {}{}", util::name_of(k_side_names, side), what, round.index + 1,
                     round.phase == Phase::warmup ? " (warm-up)" : "");
}

// " under valgrind" for a counted run, nothing for a plain one: what describe_run adds.
std::string run_kind_words(RunKind kind) {
  return kind == RunKind::counted ? " under valgrind" : "";
}

std::size_t side_index(Side side) {
  return side == Side::baseline ? 0 : 1;
}

}  // namespace

DuelRounds::DuelRounds(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed)
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
    throw Error(fmt::format("order: duet runs each side on a CPU of its own and needs two, not {} (cpus: {})",
                            config.cpus.size(), fmt::join(config.cpus, ",")),
                ExitCode::usage);
  }
  // Benchmark patterns become metrics once the first round shows which benchmarks there are;
  // until then nothing can be extracted.
  if (!has_metric_patterns(m_effective.metrics)) {
    m_extractor.emplace(m_effective.metrics);
  }
  m_outcome.seed = seed;
}

bool DuelRounds::play_round(RoundId round, FirstSide first) {
  const std::array<Side, 2> order{first == FirstSide::candidate ? Side::candidate : Side::baseline,
                                  first == FirstSide::candidate ? Side::baseline : Side::candidate};
  for (;;) {
    const auto completed = run_round(round, order);
    if (!m_failed && !m_extractor) {
      expand_patterns(round, completed);
    }
    record_values(round, completed);
    if (!m_failed && round.phase == Phase::warmup && round.index == m_config.warmup - 1 &&
        is_duet(m_config.order) && m_plan.plain) {
      run_alone(round.index);
    }
    if (!m_failed || !m_retryable || static_cast<int>(m_outcome.retried.size()) >= m_config.retries) {
      return !m_failed;
    }
    forget_round(round.index);
  }
}

void DuelRounds::repin(const RepinCallback& callback) {
  auto cpus = callback(m_outcome.warmup_parallelism, most_benchmark_threads(m_effective.metrics));
  if (!is_duet(m_config.order) || cpus.size() == 2) {  // a duet keeps its pair
    m_limits.cpus = std::move(cpus);
  }
}

void DuelRounds::judge_budget(const Analysis& analysis, int done, double elapsed_seconds,
                              const NoteCallback& on_note) {
  const bool ready =
      !m_budget_judged && !analysis.can_stop && analysis.metrics.size() == m_effective.metrics.size() &&
      std::all_of(analysis.metrics.begin(), analysis.metrics.end(),
                  [](const MetricResult& m) { return m.spec.gating != Gating::gated || m.enough_rounds; });
  if (!ready) {
    return;
  }
  m_budget_judged = true;
  const double rounds = budget_rounds(m_config, done > 0 ? elapsed_seconds / done : 0.0);
  if (auto note = budget_note(m_effective, analysis, m_outcome.runs, rounds)) {
    m_outcome.notes.push_back(*note);
    if (on_note) {
      on_note(*note);
    }
  }
}

void DuelRounds::fail(Side side, const std::string& what, RoundId round, const std::string& cause,
                      const RunResult& result, Retry retry) {
  m_outcome.end = DuelEnd::benchmark_failed;
  m_outcome.failure = describe_run(side, what, round) + ": " + cause;
  m_outcome.failure_stderr = util::tail_lines(result.err, k_tail_lines);
  // A program that prints its usage or its own error on stdout (many do) says nothing on
  // stderr: show both ends the user might look at.
  m_outcome.failure_stdout = util::tail_lines(result.out, k_tail_lines);
  m_outcome.failure_stdout_read = false;
  m_failed = true;
  m_retryable = retry == Retry::allowed;
}

// A metric could not be read from `result`: the cause, with the stdout it was looked for in (its
// stderr only when stdout is empty).
void DuelRounds::fail_reading(Side side, RoundId round, const std::string& cause, const RunResult& result,
                              Retry retry) {
  fail(side, "", round, cause, result, retry);
  if (!result.out.empty()) {
    m_outcome.failure_stdout = util::excerpt_lines(result.out, k_excerpt_edge_lines);
    m_outcome.failure_stdout_read = true;
    m_outcome.failure_stderr.clear();
  }
}

void DuelRounds::stop_interrupted() {
  m_outcome.end = DuelEnd::interrupted;
  m_failed = true;
  m_retryable = false;
}

// The failed round is discarded, the failure kept in the outcome's list of retried runs, and the
// round starts over with both sides.
void DuelRounds::forget_round(int round) {
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

// The plain runs of both sides, then the Valgrind runs in the same order (duel/run_plan.hpp): the
// plain runs back to back so that drift cancels in their ratio, or in duet at the same time; the
// Valgrind runs at the same time when there are two CPUs (a count does not depend on contention),
// unless a Google Benchmark suite's counting runs two processes a side. Returns the sides whose
// runs all finished, in the order they finished.
std::vector<DuelRounds::CompletedSide> DuelRounds::run_round(RoundId round,
                                                             const std::array<Side, 2>& order) {
  const bool counts_together =
      m_limits.cpus.size() >= 2 && m_plan.framework != BenchmarkFramework::google_benchmark;
  RoundRuns runs;
  for (const RunKind kind : {RunKind::plain, RunKind::counted}) {
    const bool counted = kind == RunKind::counted;
    if (m_failed || (counted ? !m_plan.valgrind : !m_plan.plain)) {
      continue;
    }
    if (counted ? counts_together : is_duet(m_config.order)) {
      auto pair = counted ? run_counted_pair() : run_pair(round.index);
      // The baseline's result first, as the pair has no order; a failure of both names the baseline.
      if (accept(Side::baseline, kind, round, std::move(pair[0]), runs)) {
        accept(Side::candidate, kind, round, std::move(pair[1]), runs);
      }
      continue;
    }
    for (const Side side : order) {
      if (!accept(side, kind, round, run_once(side, kind), runs)) {
        break;
      }
    }
  }
  if (!runs_programs()) {  // binary_size alone: read from the files, nothing runs
    RunResult read;
    read.status = RunStatus::exited;
    read.exit_code = 0;
    runs.completed = {{order[0], read}, {order[1], read}};
  }
  for (auto& [side, result] : runs.completed) {
    result.program_bytes = m_sizes.bytes(side);
  }
  return std::move(runs.completed);
}

// One finished run of `side` into `runs`: false when the round cannot go on.
bool DuelRounds::accept(Side side, RunKind kind, RoundId round, RunResult run, RoundRuns& runs) {
  const bool counted = kind == RunKind::counted;
  if (run.status == RunStatus::interrupted || interrupt_requested()) {
    stop_interrupted();
    return false;
  }
  if (run.left_behind > 0) {
    if (m_outcome.left_behind == 0) {
      m_outcome.left_behind_first = describe_run(side, run_kind_words(kind), round);
    }
    m_outcome.left_behind += run.left_behind;
  }
  const auto cause = describe_failure(run, m_config.run_timeout * (counted ? k_valgrind_slowdown : 1));
  if (!cause.empty()) {
    fail(side, run_kind_words(kind), round, cause, run,
         fails_again(run.status) ? Retry::refused : Retry::allowed);
    return false;
  }
  m_run_seconds += run.wall_seconds;
  if (!counted && round.phase == Phase::warmup && run.wall_seconds > 0) {
    m_outcome.warmup_parallelism =
        std::max(m_outcome.warmup_parallelism, (run.user_seconds + run.system_seconds) / run.wall_seconds);
  }
  auto& slot = runs.by_side[side_index(side)];
  if (counted && m_plan.plain) {
    // The counts come from the run under valgrind (the process's or each benchmark's), the rest
    // from the plain run.
    slot.simulated = std::move(run.simulated);
    slot.simulated_benchmarks = std::move(run.simulated_benchmarks);
    slot.uncountable = std::move(run.uncountable);
    slot.profiles = std::move(run.profiles);
  } else {
    slot = std::move(run);
  }
  if (counted || !m_plan.valgrind) {
    runs.completed.push_back({side, slot});
  }
  return true;
}

// Both plain runs at once on the duet's two CPUs (m_limits.cpus), each pinned to one, which one by
// duet_candidate_on_second. Records the CPU each side had in m_round_cpus.
std::array<RunResult, 2> DuelRounds::run_pair(int round) {
  const bool candidate_second =
      duet_candidate_on_second(m_config.order, std::max(round - m_config.warmup, 0), m_seed);
  const int first = m_limits.cpus.at(0);
  const int second = m_limits.cpus.at(1);
  m_round_cpus = {candidate_second ? first : second, candidate_second ? second : first};
  const std::array<RunLimits, 2> limits{padded_limits(m_round_cpus[0]), padded_limits(m_round_cpus[1])};
  // Which of the two is started first, woken first and read first is the round's order coin:
  // whatever that order does to a run falls on either side alike instead of on one.
  if (!candidate_first(Order::random, round, m_seed)) {
    return m_executor.run_together({&*m_config.baseline, &*m_config.candidate}, limits);
  }
  auto results = m_executor.run_together({&*m_config.candidate, &*m_config.baseline}, {limits[1], limits[0]});
  std::swap(results[0], results[1]);
  return results;
}

// Both sides' Valgrind runs at once, each on one of the first two CPUs, without PERFDUEL_PAD.
std::array<RunResult, 2> DuelRounds::run_counted_pair() {
  std::array<RunLimits, 2> limits{m_limits, m_limits};
  for (std::size_t i = 0; i < 2; ++i) {
    limits[i].cpus = {m_limits.cpus[i]};
    limits[i].env_padding_bytes.reset();
  }
  return m_simulator->run_together({&*m_config.baseline, &*m_config.candidate}, limits);
}

// Order duet, after the last warm-up round: each side once more, alone on the CPU it had, so that
// the analysis can tell how much the two slow each other when they run together.
void DuelRounds::run_alone(int round) {
  const RoundId warmup{round, Phase::warmup};
  for (const Side side : {Side::baseline, Side::candidate}) {
    const int cpu = m_round_cpus[side_index(side)];
    const auto& command = side == Side::baseline ? *m_config.baseline : *m_config.candidate;
    const RunResult run = m_executor.run(command, padded_limits(cpu));
    if (run.status == RunStatus::interrupted || interrupt_requested()) {
      stop_interrupted();
      return;
    }
    if (const auto cause = describe_failure(run, m_config.run_timeout); !cause.empty()) {
      fail(side, " (alone)", warmup, cause, run, Retry::allowed);
      return;
    }
    auto values = m_extractor->extract(run);
    if (!values) {
      fail_reading(side, warmup, values.error(), run, Retry::allowed);
      return;
    }
    m_outcome.runs.push_back({round, side, true, std::move(values).value(), cpu, true});
  }
}

// The limits of the next plain run: on `cpu` when given, with its PERFDUEL_PAD length (none when
// padding is off; the layout it randomizes matters for time, not for counts). Counts the run.
RunLimits DuelRounds::padded_limits(std::optional<int> cpu) {
  RunLimits limits = m_limits;
  if (cpu) {
    limits.cpus = {*cpu};
  }
  const auto index = m_run_index++;
  limits.env_padding_bytes =
      m_config.env_padding ? std::optional(env_padding_bytes(m_seed, index)) : std::nullopt;
  return limits;
}

// One run of `side`: a plain one with its padding, a counted one without.
RunResult DuelRounds::run_once(Side side, RunKind kind) {
  const auto& command = side == Side::baseline ? *m_config.baseline : *m_config.candidate;
  if (kind == RunKind::counted) {
    RunLimits limits = m_limits;
    limits.env_padding_bytes.reset();
    return m_simulator->run(command, limits);
  }
  return m_executor.run(command, padded_limits(std::nullopt));
}

// The first complete round's two outputs expand the benchmark patterns into metrics.
void DuelRounds::expand_patterns(RoundId round, const std::vector<CompletedSide>& completed) {
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
    fail_reading(Side::baseline, round, expansion.error(), baseline_run, Retry::refused);
    m_outcome.failure = fmt::format("round {}{}: {}", round.index + 1,
                                    round.phase == Phase::warmup ? " (warm-up)" : "", expansion.error());
    return;
  }
  MetricExpansion expanded = std::move(expansion).value();
  m_effective.metrics = std::move(expanded.metrics);
  m_outcome.suite = std::move(expanded.changes);
  m_extractor.emplace(m_effective.metrics);
  set_aside_unmeasurable(round, baseline_run, candidate_run);
}

// Benchmarks that measure nothing in the first round of both sides (is_unmeasurable) are reported,
// not gated: a loop the compiler emptied would keep the duel waiting on timer noise.
void DuelRounds::set_aside_unmeasurable(RoundId round, const RunResult& baseline,
                                        const RunResult& candidate) {
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
    fail_reading(Side::baseline, round,
                 "no gated metric measures anything: every gated benchmark reads below 0.01 ns per iteration "
                 "on both sides (is its work optimized away? benchmark::DoNotOptimize keeps it)",
                 baseline, Retry::refused);
  }
}

// Each completed side's values, recorded even when a later run of the round failed.
void DuelRounds::record_values(RoundId round, const std::vector<CompletedSide>& completed) {
  if (!m_extractor) {
    return;
  }
  for (const auto& [side, result] : completed) {
    auto values = m_extractor->extract(result);
    if (!values) {
      if (!m_failed) {
        fail_reading(side, round,
                     result.out_truncated
                         ? fmt::format("{} (stdout was cut at {} MiB)", values.error(), k_max_stdout_mib)
                         : values.error(),
                     result, Retry::allowed);
      }
      return;
    }
    m_outcome.runs.push_back({round.index, side, round.phase == Phase::warmup, std::move(values).value(),
                              is_duet(m_config.order) ? m_round_cpus[side_index(side)] : -1});
    for (const auto& [name, profile] : result.profiles) {  // the last round's count for each
      m_outcome.profiles[name][side_index(side)] = profile;
    }
  }
}

}  // namespace perfduel
