// Order duet: both sides of a round at once, each on one CPU of a pair, the assignment balanced
// over pairs of rounds; the CPUs' difference measured and kept out of the change.

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "error.hpp"
#include "stats/assignment.hpp"
#include "stats/paired.hpp"

using namespace perfduel;

namespace {

// No processes: each run's wall time is log-normal around `median` (log-sd `sigma`), times
// `factor` of the CPU it was pinned to. Records which runs came as pairs and on which CPUs.
class DuetExecutor : public Executor {
 public:
  DuetExecutor(double baseline_median, double candidate_median, std::map<int, double> factor,
               std::uint64_t seed = 3)
      : m_median{baseline_median, candidate_median}, m_factor(std::move(factor)), m_rng(seed) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    ++m_single;
    return make(command, limits);
  }

  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override {
    ++m_pairs;
    m_pair_cpus.push_back({limits[0].cpus, limits[1].cpus});
    return {make(*commands[0], limits[0]), make(*commands[1], limits[1])};
  }

  // The run made `call`-th (from 0, pairs and single runs alike) exits with code 1.
  void fail_call(int call) { m_fail_call = call; }

  int pairs() const { return m_pairs; }
  int single() const { return m_single; }
  const std::vector<std::array<std::vector<int>, 2>>& pair_cpus() const { return m_pair_cpus; }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

 private:
  RunResult make(const CommandSpec& command, const RunLimits& limits) {
    const bool candidate = command.argv.at(0) == "candidate";
    std::normal_distribution<double> noise(0.0, 0.01);
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    const double factor = limits.cpus.size() == 1 ? m_factor[limits.cpus.front()] : 1.0;
    result.wall_seconds = m_median[candidate ? 1 : 0] * factor * std::exp(noise(m_rng));
    result.user_seconds = 0.9 * result.wall_seconds;
    result.system_seconds = 0.01;
    result.max_rss_bytes = 1 << 20;
    if (m_calls++ == m_fail_call) {
      result.exit_code = 1;
    }
    m_now += result.wall_seconds;
    return result;
  }

  std::array<double, 2> m_median;
  std::map<int, double> m_factor;
  std::mt19937_64 m_rng;
  double m_now = 0;
  int m_pairs = 0;
  int m_single = 0;
  int m_calls = 0;
  int m_fail_call = -1;
  std::vector<std::array<std::vector<int>, 2>> m_pair_cpus;
};

Config duet_config(Order order) {
  Config config = default_config();
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  config.order = order;
  config.cpus = {2, 5};
  config.warmup = 1;
  config.min_rounds = 40;
  config.max_rounds = 40;
  return config;
}

}  // namespace

TEST_CASE("a duet runs both sides together, each on its own CPU, balanced over pairs of rounds",
          "[duel][duet]") {
  const Config config = duet_config(Order::duet);
  DuetExecutor executor(0.1, 0.1, {{2, 1.0}, {5, 1.0}});
  const auto outcome = run_duel(config, executor, 11, nullptr);
  REQUIRE(outcome.end == DuelEnd::decided);
  CHECK(executor.single() == 2);  // each side once alone after the warm-up (the interference check)
  CHECK(executor.pairs() == 41);  // the warm-up round and 40 measured rounds
  CHECK(std::count_if(outcome.runs.begin(), outcome.runs.end(),
                      [](const RunRecord& run) { return run.alone && run.warmup && run.cpu >= 0; }) == 2);
  std::map<int, int> candidate_cpu;  // by measured round
  for (const auto& [baseline, candidate] : executor.pair_cpus()) {
    REQUIRE(baseline.size() == 1);
    REQUIRE(candidate.size() == 1);
    CHECK(std::set<int>{baseline.front(), candidate.front()} == std::set<int>{2, 5});
  }
  for (const auto& run : outcome.runs) {
    CHECK((run.cpu == 2 || run.cpu == 5));
    if (!run.warmup && run.side == Side::candidate) {
      candidate_cpu[run.round - config.warmup] = run.cpu;
    }
  }
  REQUIRE(candidate_cpu.size() == 40);
  int pairs_starting_on_5 = 0;
  for (int pair = 0; pair < 20; ++pair) {
    CHECK(candidate_cpu[2 * pair] != candidate_cpu[2 * pair + 1]);  // every two rounds, each CPU once
    pairs_starting_on_5 += candidate_cpu[2 * pair] == 5 ? 1 : 0;
  }
  // The way round is a coin per pair: 20 coins all alike has chance 2⁻¹⁹ (seeded: fixed here).
  CHECK(pairs_starting_on_5 > 0);
  CHECK(pairs_starting_on_5 < 20);
  for (int round = 0; round < 40; ++round) {
    CHECK(duet_candidate_on_second(Order::duet, round, 11) == (candidate_cpu[round] == 5));
    CHECK(duet_candidate_on_second(Order::duet_fixed, round, 11));
  }
}

TEST_CASE("a duet keeps the CPUs' difference out of the change and measures it", "[duel][duet]") {
  // CPU 5 runs everything 6 % slower. An A/A duet must see no change and a CPU effect near
  // +6 %; duet-fixed, with the candidate always on CPU 5, sees the 6 % as the change.
  DuetExecutor balanced(0.1, 0.1, {{2, 1.0}, {5, 1.06}});
  const auto outcome = run_duel(duet_config(Order::duet), balanced, 5, nullptr);
  const auto& wall = outcome.analysis.metrics.at(0);
  CHECK(
      (outcome.analysis.verdict == Verdict::no_change || outcome.analysis.verdict == Verdict::inconclusive));
  CHECK(std::abs(wall.change) < 0.01);
  REQUIRE(wall.cpu_effect);
  CHECK(*wall.cpu_effect == Approx(0.06).margin(0.01));
  CHECK(wall.cpu_effect_ci.lo < 0.06);
  CHECK(wall.cpu_effect_ci.hi > 0.06);
  // Without the correction the interval would carry the 6 % as noise: σ ≈ 6 % a round, at least
  // 2·2.02·0.06/√40 ≈ 3.8 % wide before any allowance; with it, the rounds' own 1.4 %: about
  // 0.9 % before the allowances for stopping and autocorrelation.
  CHECK(wall.ci.hi - wall.ci.lo < 0.025);

  DuetExecutor fixed(0.1, 0.1, {{2, 1.0}, {5, 1.06}});
  const auto biased = run_duel(duet_config(Order::duet_fixed), fixed, 5, nullptr);
  CHECK(biased.analysis.metrics.at(0).change == Approx(0.06).margin(0.01));
  CHECK_FALSE(biased.analysis.metrics.at(0).cpu_effect);
  CHECK(biased.analysis.verdict == Verdict::regression);
}

TEST_CASE("a failed run of a duet is retried with its round, as in the other orders", "[duel][duet]") {
  Config config = duet_config(Order::duet);
  config.retries = 1;
  DuetExecutor executor(0.1, 0.1, {{2, 1.0}, {5, 1.0}});
  executor.fail_call(20);  // a run of round 10, the 9th measured (2 warm-up, 2 alone, then 2 a round)
  const auto outcome = run_duel(config, executor, 11, nullptr);
  CHECK(outcome.end == DuelEnd::decided);
  REQUIRE(outcome.retried.size() == 1);
  CHECK_THAT(outcome.retried.front(), Catch::Contains("exited with code 1"));
  CHECK(executor.pairs() == 42);  // the warm-up, 40 measured rounds and the one played again
  CHECK(outcome.analysis.measured_rounds == 40);

  DuetExecutor once_too_often(0.1, 0.1, {{2, 1.0}, {5, 1.0}});
  once_too_often.fail_call(20);
  config.retries = 0;
  const auto failed = run_duel(config, once_too_often, 11, nullptr);
  CHECK(failed.end == DuelEnd::benchmark_failed);
  CHECK_THAT(failed.failure, Catch::Contains("run in round 10: exited with code 1"));
}

TEST_CASE("a duet needs a pair of CPUs", "[duel][duet]") {
  Config config = duet_config(Order::duet);
  config.cpus = {3};
  DuetExecutor executor(0.1, 0.1, {});
  try {
    run_duel(config, executor, 1, nullptr);
    FAIL("a duet on one CPU ran");
  } catch (const Error& e) {
    CHECK(e.exit_code() == ExitCode::usage);
    CHECK_THAT(e.what(), Catch::Contains("needs two"));
  }
}

TEST_CASE("assignment effect: known values", "[stats][duet]") {
  // d = Δ + s·e exactly: Δ = 0.02, e = 0.1.
  const std::vector<double> d{0.12, -0.08, -0.08, 0.12, 0.12, -0.08};
  const std::vector<int> s{1, -1, -1, 1, 1, -1};
  const auto effect = stats::assignment_effect(d, s);
  REQUIRE(effect);
  CHECK(effect->effect == Approx(0.1));
  CHECK(effect->standard_error == Approx(0.0).margin(1e-12));
  const auto factors = stats::assignment_correction(d, s, *effect, true);
  for (std::size_t r = 0; r < d.size(); ++r) {
    CHECK(d[r] + std::log(factors[r]) == Approx(0.02));
  }
  CHECK_FALSE(stats::assignment_effect(d, std::vector<int>{1, 1, 1, 1, 1, 1}));  // fixed: not separable
  CHECK_FALSE(stats::assignment_effect(std::vector<double>{0.1, 0.2, 0.3}, std::vector<int>{1, -1, 1}));
}

TEST_CASE("assignment effect: corrected t intervals keep their coverage (seeded simulation)",
          "[stats][duet]") {
  // 4,000 A/A series of 20 rounds, CPU effect e = 5 %, noise σ = 1 %, pairs of rounds balanced
  // with a coin per pair. The 95 % t interval of the corrected log-ratios must cover 0 in
  // 95 ± 1.4 % (4 binomial standard errors) of them and be several times narrower than the
  // uncorrected one, which carries e as noise.
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::bernoulli_distribution coin(0.5);
  constexpr int k_series = 4000;
  constexpr std::size_t k_rounds = 20;
  int covered = 0;
  double corrected_width = 0;
  double plain_width = 0;
  for (int i = 0; i < k_series; ++i) {
    std::vector<double> d(k_rounds);
    std::vector<int> s(k_rounds);
    for (std::size_t r = 0; r < k_rounds; r += 2) {
      s[r] = coin(rng) ? 1 : -1;
      s[r + 1] = -s[r];
    }
    for (std::size_t r = 0; r < k_rounds; ++r) {
      d[r] = 0.05 * s[r] + noise(rng);
    }
    const auto effect = stats::assignment_effect(d, s);
    REQUIRE(effect);
    const auto factors = stats::assignment_correction(d, s, *effect, true);
    std::vector<double> corrected(k_rounds);
    for (std::size_t r = 0; r < k_rounds; ++r) {
      corrected[r] = d[r] + std::log(factors[r]);
    }
    const auto interval = stats::t_interval(corrected, 0.95);
    const auto plain = stats::t_interval(d, 0.95);
    REQUIRE(interval);
    REQUIRE(plain);
    covered += interval->ci.contains(0.0) ? 1 : 0;
    corrected_width += interval->ci.width();
    plain_width += plain->ci.width();
  }
  const double coverage = static_cast<double>(covered) / k_series;
  CHECK(coverage > 0.936);
  CHECK(coverage < 0.964);
  CHECK(plain_width > 4 * corrected_width);
}

namespace {

// A scripted Valgrind executor: each run counts `instructions` (the candidate's times `factor`);
// records whether runs came alone or as pairs, and on which CPUs.
class CountingExecutor : public Executor {
 public:
  explicit CountingExecutor(double factor) : m_factor(factor) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    m_single_cpus.push_back(limits.cpus);
    return make(command);
  }

  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override {
    m_pair_cpus.push_back({limits[0].cpus, limits[1].cpus});
    return {make(*commands[0]), make(*commands[1])};
  }

  const std::vector<std::vector<int>>& single_cpus() const { return m_single_cpus; }
  const std::vector<std::array<std::vector<int>, 2>>& pair_cpus() const { return m_pair_cpus; }
  double now_seconds() override { return m_now; }

 private:
  RunResult make(const CommandSpec& command) {
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = 1;
    result.simulated[CountedEvent::instructions] = 1e6 * (command.argv.at(0) == "candidate" ? m_factor : 1.0);
    m_now += 1;
    return result;
  }

  double m_factor;
  double m_now = 0;
  std::vector<std::vector<int>> m_single_cpus;
  std::vector<std::array<std::vector<int>, 2>> m_pair_cpus;
};

Config counted_config(std::vector<int> cpus, const std::string& metrics) {
  Config config = parse_config("metrics:\n" + metrics, "gate.yaml");
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  config.cpus = std::move(cpus);
  return config;
}

}  // namespace

TEST_CASE("counted runs of the two sides go together when there are two CPUs", "[duel][duet]") {
  DuetExecutor timed(0.1, 0.1, {});
  SECTION("whole processes, two CPUs: every round one pair, each side on one CPU") {
    CountingExecutor counting(1.02);
    const auto outcome =
        run_duel(counted_config({3, 6}, "  insns: {valgrind: instructions}\n"), timed, &counting, 1, nullptr);
    REQUIRE(outcome.end == DuelEnd::decided);
    CHECK(outcome.analysis.verdict == Verdict::regression);
    CHECK(counting.single_cpus().empty());
    REQUIRE(counting.pair_cpus().size() == 3);  // 3 rounds (a duel that only counts has no warm-up)
    for (const auto& [baseline, candidate] : counting.pair_cpus()) {
      CHECK(baseline == std::vector<int>{3});
      CHECK(candidate == std::vector<int>{6});
    }
    CHECK(timed.pairs() + timed.single() == 0);  // nothing timed
  }
  SECTION("one CPU: one side after the other") {
    CountingExecutor counting(1.0);
    const auto outcome =
        run_duel(counted_config({3}, "  insns: {valgrind: instructions}\n"), timed, &counting, 1, nullptr);
    REQUIRE(outcome.end == DuelEnd::decided);
    CHECK(outcome.analysis.verdict == Verdict::no_change);
    CHECK(counting.pair_cpus().empty());
    CHECK(counting.single_cpus().size() == 6);
  }
  SECTION("a Google Benchmark suite: one side after the other, each with both CPUs") {
    CountingExecutor counting(1.0);
    // No benchmark output: the first round's expansion fails, after both sides ran once.
    run_duel(counted_config({3, 6}, "  insns: {google_benchmark: \"BM_*\", valgrind: instructions}\n"), timed,
             &counting, 1, nullptr);
    CHECK(counting.pair_cpus().empty());
    REQUIRE(counting.single_cpus().size() == 2);
    CHECK(counting.single_cpus().front() == std::vector<int>{3, 6});
  }
}
