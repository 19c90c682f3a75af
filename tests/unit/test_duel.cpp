#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "run/executor.hpp"

using namespace perfduel;

namespace {

// A scripted Executor: no processes, no timing. Each side's wall time is drawn from its own
// seeded log-normal distribution (median `median`, log-sd `sigma`); `tweak` may then change
// any result (make it fail, print output, zero a value) by side and per-side call number.
class ScriptedExecutor : public Executor {
 public:
  struct Distribution {
    double median = 0.1;
    double sigma = 0.01;
  };
  using Tweak = std::function<void(Side side, int call, RunResult& result)>;

  ScriptedExecutor(Distribution baseline, Distribution candidate, std::uint64_t seed = 1)
      : m_baseline(baseline), m_candidate(candidate), m_rng(seed) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    const Side side = command.argv.at(0) == "baseline" ? Side::baseline : Side::candidate;
    const Distribution& spec = side == Side::baseline ? m_baseline : m_candidate;
    m_timeouts.push_back(limits.timeout_seconds);
    m_paddings[side].push_back(limits.env_padding_bytes);
    std::normal_distribution<double> noise(0.0, spec.sigma);
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = spec.median * std::exp(noise(m_rng));
    result.user_seconds = 0.9 * result.wall_seconds;
    result.system_seconds = 0.01;
    result.max_rss_bytes = 1 << 20;
    const int call = m_calls[side]++;
    m_order.push_back(side);
    if (m_tweak) {
      m_tweak(side, call, result);
    }
    m_now += result.wall_seconds;
    return result;
  }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

  void set_tweak(Tweak tweak) { m_tweak = std::move(tweak); }
  const std::vector<Side>& order() const { return m_order; }
  const std::vector<double>& timeouts() const { return m_timeouts; }
  const std::vector<std::optional<std::size_t>>& paddings(Side side) { return m_paddings[side]; }

 private:
  Distribution m_baseline;
  Distribution m_candidate;
  std::mt19937_64 m_rng;
  Tweak m_tweak;
  std::map<Side, int> m_calls;
  std::vector<Side> m_order;
  std::vector<double> m_timeouts;
  std::map<Side, std::vector<std::optional<std::size_t>>> m_paddings;
  double m_now = 0;
};

Config duel_config() {
  Config config = default_config();
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  config.warmup = 1;
  config.min_rounds = 20;
  config.max_rounds = 300;
  return config;
}

DuelOutcome duel(const Config& config, ScriptedExecutor& executor, std::uint64_t seed = 42) {
  return run_duel(config, executor, seed, nullptr);
}

const MetricResult& wall_time(const Analysis& analysis) {
  return analysis.metrics.at(0);
}

// Each measured round's runs, by round number.
std::map<int, std::vector<const RunRecord*>> measured_rounds(const DuelOutcome& outcome) {
  std::map<int, std::vector<const RunRecord*>> rounds;
  for (const auto& run : outcome.runs) {
    if (!run.warmup) {
      rounds[run.round].push_back(&run);
    }
  }
  return rounds;
}

}  // namespace

TEST_CASE("warm-up rounds are run first and left out of the analysis", "[duel]") {
  Config config = duel_config();
  config.warmup = 3;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  // The candidate's warm-up runs are 100 times slower: if they counted, no "no change".
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call < 3) {
      result.wall_seconds *= 100;
    }
  });
  const auto outcome = duel(config, executor);
  REQUIRE(outcome.end == DuelEnd::decided);
  REQUIRE(outcome.runs.size() >= 6);
  for (std::size_t i = 0; i < outcome.runs.size(); ++i) {
    const auto& run = outcome.runs[i];
    CHECK(run.warmup == (i < 6));
    CHECK(run.round == static_cast<int>(i / 2));
  }
  CHECK(outcome.analysis.measured_rounds * 2 + 6 == static_cast<int>(outcome.runs.size()));
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  CHECK(wall_time(outcome.analysis).candidate_median == Approx(0.1).epsilon(0.02));
  CHECK(executor.order().size() == outcome.runs.size());
  CHECK(executor.timeouts().front() == config.run_timeout);
}

TEST_CASE("each measured round has one baseline and one candidate run", "[duel]") {
  Config config = duel_config();
  config.min_rounds = 40;
  ScriptedExecutor executor({0.1, 0.05}, {0.1, 0.05});
  const auto outcome = duel(config, executor);
  const auto rounds = measured_rounds(outcome);
  REQUIRE(static_cast<int>(rounds.size()) == outcome.analysis.measured_rounds);
  CHECK(outcome.analysis.measured_rounds >= 40);
  int expected_round = config.warmup;
  for (const auto& [round, runs] : rounds) {
    CHECK(round == expected_round++);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0]->side != runs[1]->side);
    CHECK(runs[0]->values.size() == config.metrics.size());
  }
}

TEST_CASE("random order is reproducible for a seed and roughly balanced", "[duel]") {
  // The duel follows candidate_first for every measured round.
  Config config = duel_config();
  config.min_rounds = 30;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const std::uint64_t seed = 0xfeedbeefcafeULL;
  const auto outcome = duel(config, executor, seed);
  CHECK(outcome.seed == seed);
  for (const auto& [round, runs] : measured_rounds(outcome)) {
    const bool b_first = candidate_first(Order::random, round - config.warmup, seed);
    CHECK(runs.front()->side == (b_first ? Side::candidate : Side::baseline));
  }

  // The same seed gives the same order; another seed another one.
  ScriptedExecutor again({0.1, 0.01}, {0.1, 0.01});
  CHECK(duel(config, again, seed).runs.size() == outcome.runs.size());
  CHECK(again.order() == executor.order());
  ScriptedExecutor other({0.1, 0.01}, {0.1, 0.01});
  duel(config, other, seed + 1);
  CHECK(other.order() != executor.order());

  // Over 2000 rounds the coin is fair: 1000 ± 4σ (σ = √500 ≈ 22.4).
  for (const std::uint64_t s : {1ULL, ~0ULL}) {
    int candidate_first_count = 0;
    int switches = 0;
    bool previous = false;
    for (int round = 0; round < 2000; ++round) {
      const bool b_first = candidate_first(Order::random, round, s);
      candidate_first_count += b_first ? 1 : 0;
      switches += round > 0 && b_first != previous ? 1 : 0;
      previous = b_first;
    }
    CHECK(candidate_first_count > 910);
    CHECK(candidate_first_count < 1090);
    CHECK(switches > 910);  // no long runs of one order either
    CHECK(switches < 1090);
  }
}

TEST_CASE("ABBA order alternates AB, BA", "[duel]") {
  Config config = duel_config();
  config.order = Order::abba;
  config.warmup = 2;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const auto outcome = duel(config, executor);
  REQUIRE(outcome.analysis.measured_rounds >= 20);
  for (const auto& [round, runs] : measured_rounds(outcome)) {
    const int measured = round - config.warmup;
    CHECK(runs.front()->side == (measured % 2 == 0 ? Side::baseline : Side::candidate));
  }
  // The executor saw A B | B A | A B | ... after the warm-up.
  const auto& order = executor.order();
  REQUIRE(order.size() >= 8);
  const std::vector<Side> first_blocks(order.begin() + 4, order.begin() + 12);
  CHECK(first_blocks == std::vector<Side>{Side::baseline, Side::candidate, Side::candidate, Side::baseline,
                                          Side::baseline, Side::candidate, Side::candidate, Side::baseline});
  CHECK_FALSE(candidate_first(Order::abba, 0, 7));
  CHECK(candidate_first(Order::abba, 1, 7));
  CHECK_FALSE(candidate_first(Order::abba, 2, 7));
}

TEST_CASE("the duel stops once the interval is narrow enough", "[duel]") {
  Config config = duel_config();
  config.autocorrelation_limit = 1.0;  // no batching, so that the plain t interval decides at min_rounds
  ScriptedExecutor executor({0.1, 0.002}, {0.1, 0.002});
  int progress_calls = 0;
  const auto outcome = run_duel(config, executor, 3, [&](const Analysis& analysis, double) {
    ++progress_calls;
    CHECK(analysis.measured_rounds == progress_calls);
  });
  CHECK(outcome.end == DuelEnd::decided);
  CHECK(outcome.failure.empty());
  // Noise of 0.2 % is narrow at once: the minimum rounds decide, not the budget.
  CHECK(outcome.analysis.measured_rounds == config.min_rounds);
  CHECK(progress_calls == config.min_rounds);
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  CHECK(wall_time(outcome.analysis).width_reached);
}

TEST_CASE("the duel ends at max_rounds with an inconclusive verdict", "[duel]") {
  Config config = duel_config();
  config.max_rounds = 19;                             // below the 20 rounds from which futility may stop it
  ScriptedExecutor executor({0.1, 0.3}, {0.1, 0.3});  // 30 % noise never gets to ±1 % in 19 rounds
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::round_budget);
  CHECK(outcome.analysis.measured_rounds == 19);
  CHECK(outcome.runs.size() == 2 * (19 + 1));
  CHECK(wall_time(outcome.analysis).verdict == Verdict::inconclusive);
  REQUIRE(outcome.analysis.verdict == Verdict::inconclusive);
  CHECK(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::skip) == ExitCode::inconclusive);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::skip)) == 77);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::fail)) == 1);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::pass)) == 0);
}

TEST_CASE("a duel that cannot settle within its budget stops early as futile", "[duel]") {
  Config config = duel_config();
  config.metrics[0].threshold = 0.10;
  config.max_rounds = 60;
  // 30 % noise per run against a 10 % threshold needs about 300 rounds: from round 20 (a fifth
  // of the budget is 12) the projection exceeds three times the budget of 60, and the duel says
  // so instead of spending it.
  ScriptedExecutor executor({0.1, 0.3}, {0.1, 0.3});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::futile);
  CHECK(outcome.analysis.measured_rounds == 20);
  CHECK(outcome.analysis.verdict == Verdict::inconclusive);
  CHECK(outcome.analysis.fewest_open_projected_rounds > k_futility_margin * 60);
  // With a budget that reaches it, the same duel goes on until its interval settles.
  config.max_rounds = 1000;
  ScriptedExecutor patient({0.1, 0.3}, {0.1, 0.3});
  const auto long_duel = duel(config, patient);
  INFO("stopped at " << long_duel.analysis.measured_rounds << " projecting "
                     << long_duel.analysis.fewest_open_projected_rounds);
  CHECK(long_duel.end == DuelEnd::decided);
}

TEST_CASE("futility: the projection against three times the budget", "[duel][verdict]") {
  CHECK(budget_is_futile(3001, 1000));
  CHECK_FALSE(budget_is_futile(3000, 1000));
  CHECK_FALSE(
      budget_is_futile(std::numeric_limits<double>::quiet_NaN(), 1000));  // a metric has no projection
  CHECK_FALSE(budget_is_futile(1e9, std::numeric_limits<double>::infinity()));
  // The projection: the width rule's interval shrinks as 1/√n, a sequence off the band's edge too.
  MetricSpec spec;
  spec.threshold = 0.02;
  CHECK(projected_rounds(20, std::expm1(2 * std::log1p(0.02)), spec, std::nullopt) == Approx(80));
  CHECK(projected_rounds(20, 0.01, spec, std::nullopt) == Approx(20));  // already narrow enough
  spec.tolerance = 0.05;
  // A sequence at [+6 %, +14 %] in log space: centre 0.10, radius 0.04, gap 0.10 − ln 1.05 ≈ 0.051.
  const double gap = 0.10 - std::log1p(0.05);
  CHECK(projected_rounds(20, 0.5, spec, stats::Interval{0.06, 0.14}) == Approx(20));  // radius < gap already
  CHECK(projected_rounds(20, 0.5, spec, stats::Interval{0.0, 0.2}) == Approx(20 * (0.1 / gap) * (0.1 / gap)));
}

TEST_CASE("a spent time budget ends the duel before the next round", "[duel]") {
  Config config = duel_config();
  config.max_seconds = 0;  // spent as soon as the warm-up round has taken any time at all
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::time_budget);
  CHECK(outcome.runs.size() == 2);  // the warm-up round only
  CHECK(outcome.analysis.measured_rounds == 0);
  CHECK(outcome.analysis.verdict == Verdict::inconclusive);
}

TEST_CASE("the duel reads its budget on the executor's clock, not the machine's", "[duel]") {
  Config config = duel_config();
  config.max_seconds = 10;
  // Runs of 1 s by the scripted clock, 2 s a round: before each round the elapsed time plus the
  // longest round must stay within 10 s, so the warm-up round and 3 measured rounds fit (2 + 3 × 2
  // = 8 s, and 8 + 2 > 10), however long the machine took to compute them.
  ScriptedExecutor executor({1.0, 1e-9}, {1.0, 1e-9});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::time_budget);
  CHECK(outcome.analysis.measured_rounds == 3);
  CHECK(outcome.elapsed_seconds == Approx(8.0));
}

TEST_CASE("exit codes follow the verdict", "[duel]") {
  for (const auto policy : {InconclusivePolicy::skip, InconclusivePolicy::fail, InconclusivePolicy::pass}) {
    CHECK(exit_code_for(Verdict::regression, policy) == ExitCode::regression);
    CHECK(exit_code_for(Verdict::no_change, policy) == ExitCode::pass);
    CHECK(exit_code_for(Verdict::improvement, policy) == ExitCode::pass);
  }
  CHECK(exit_code_for(Verdict::unstable, InconclusivePolicy::skip) == ExitCode::inconclusive);
}

TEST_CASE("A/A, B = 2A and B = A/2 give the right verdicts", "[duel]") {
  Config config = duel_config();
  SECTION("identical distributions: no change") {
    // Several seeds: none may report a regression or an improvement.
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      ScriptedExecutor executor({0.1, 0.02}, {0.1, 0.02}, seed);
      const auto outcome = duel(config, executor, seed);
      CHECK(outcome.end == DuelEnd::decided);
      CHECK(outcome.analysis.verdict == Verdict::no_change);
      CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::pass);
    }
  }
  SECTION("the candidate takes twice as long: regression") {
    ScriptedExecutor executor({0.1, 0.02}, {0.2, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::regression_found);
    REQUIRE(outcome.analysis.verdict == Verdict::regression);
    CHECK(wall_time(outcome.analysis).change == Approx(1.0).margin(0.05));
    // A doubling is settled by the sign sequence at its floor for one gated metric at 95 %:
    // ten rounds all slower by more than the threshold, before min_rounds and before the
    // confidence sequence's burn-in.
    CHECK(wall_time(outcome.analysis).settled_by == SettledBy::signs);
    CHECK(outcome.analysis.measured_rounds == 10);
    CHECK(wall_time(outcome.analysis).ci.lo > 0.8);
    CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::regression);
  }
  SECTION("with a fixed order (abba) the confidence sequence settles the doubling after its burn-in") {
    config.order = Order::abba;
    ScriptedExecutor executor({0.1, 0.02}, {0.2, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::decided);
    REQUIRE(outcome.analysis.verdict == Verdict::regression);
    CHECK(wall_time(outcome.analysis).settled_by == SettledBy::sequence);
    CHECK(outcome.analysis.measured_rounds == config.min_rounds);
  }
  SECTION("the candidate takes half as long: improvement") {
    ScriptedExecutor executor({0.1, 0.02}, {0.05, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::decided);
    REQUIRE(outcome.analysis.verdict == Verdict::improvement);
    CHECK(wall_time(outcome.analysis).change == Approx(-0.5).margin(0.02));
    CHECK(wall_time(outcome.analysis).ci.hi < -0.45);
    CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::pass);
  }
}

TEST_CASE("a failing run ends the duel with a one-line cause, keeping earlier runs", "[duel]") {
  Config config = duel_config();
  config.order = Order::abba;  // measured round r (0-based) is AB when r is even
  config.run_timeout = 2;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});

  struct Case {
    const char* name;
    std::function<void(RunResult&)> fail;
    const char* cause;
  };
  const std::vector<Case> cases{
      {"non-zero exit",
       [](RunResult& r) {
         r.exit_code = 1;
         r.err = "line 1\nassertion failed: x > 0\n";
       },
       "candidate run in round 5: exited with code 1"},
      {"signal",
       [](RunResult& r) {
         r.status = RunStatus::signaled;
         r.signal = 11;
       },
       "candidate run in round 5: was killed by signal 11 (Segmentation fault)"},
      {"timeout", [](RunResult& r) { r.status = RunStatus::timed_out; },
       "candidate run in round 5: timed out after 2.000 s and was killed (raise \"timeout\" in the config?)"},
      {"cannot start",
       [](RunResult& r) {
         r.status = RunStatus::failed_to_start;
         r.error = "./candidate: No such file or directory";
       },
       "candidate run in round 5: could not be started: ./candidate: No such file or directory"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      // Candidate call 4 is the candidate run of round 5 (1 warm-up + measured rounds 0..3).
      executor.set_tweak([&](Side side, int call, RunResult& result) {
        if (side == Side::candidate && call == 4) {
          c.fail(result);
        }
      });
      const auto outcome = duel(config, executor);
      CHECK(outcome.end == DuelEnd::benchmark_failed);
      CHECK(outcome.failure == c.cause);
      // Round 5 is measured round 3: BA in ABBA, so the candidate ran first; 8 runs before it.
      REQUIRE(outcome.runs.size() == 8);
      CHECK(executor.order().size() == 9);
      CHECK(outcome.runs.back().round == 3);
      CHECK(outcome.analysis.measured_rounds == 3);
      if (std::string(c.name) == "non-zero exit") {
        CHECK(outcome.failure_stderr == "line 1\nassertion failed: x > 0");
      }
    }
  }
}

TEST_CASE("a failing run keeps the other side's run of the same round", "[duel]") {
  Config config = duel_config();
  config.order = Order::abba;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  // Candidate call 3 is measured round 2 (round 4), which is AB: the baseline ran already.
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call == 3) {
      result.exit_code = 3;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.failure == "candidate run in round 4: exited with code 3");
  REQUIRE(outcome.runs.size() == 7);
  CHECK(outcome.runs.back().side == Side::baseline);
  CHECK(outcome.runs.back().round == 3);
  CHECK(outcome.analysis.measured_rounds == 2);  // the half round is not paired
}

TEST_CASE("a failing warm-up run says so", "[duel]") {
  Config config = duel_config();
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::baseline && call == 0) {
      result.exit_code = 1;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.failure == "baseline run in round 1 (warm-up): exited with code 1");
  CHECK(outcome.analysis.measured_rounds == 0);
}

TEST_CASE("a metric missing from the output fails the duel", "[duel]") {
  Config config = duel_config();
  MetricSpec score;
  score.name = "score";
  score.source = MetricSource::regex;
  score.pattern = R"(score: (\d+))";
  score.gating = Gating::gated;
  score.threshold = 0.5;
  config.metrics.push_back(score);
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int call, RunResult& result) {
    result.out = "score: 100\n";
    if (side == Side::baseline && call == 6) {
      result.out = "Score = 100\n";
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.failure ==
        R"~(baseline run in round 7: metric "score": no match for regex "score: (\d+)" in the output)~");
  CHECK(outcome.analysis.measured_rounds >= 5);
}

TEST_CASE("a zero value in a gated metric fails the duel naming the round", "[duel]") {
  Config config = duel_config();
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call == 3) {
      result.wall_seconds = 0;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(
      outcome.failure ==
      "metric \"wall_time\": candidate value 0 in round 4; a ratio needs positive values (is the metric read "
      "correctly? if 0 is a valid reading, set \"zeros: allowed\")");
  CHECK(outcome.runs.size() == 8);  // the zero run is kept in the record too
}

TEST_CASE("a zero value in a warm-up round or a report-only metric is no failure", "[duel]") {
  Config config = duel_config();
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int call, RunResult& result) {
    result.system_seconds = 0;  // report-only, and typical of a short program
    if (side == Side::baseline && call == 0) {
      result.wall_seconds = 0;  // warm-up only
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::decided);
  CHECK(outcome.failure.empty());
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  const auto& system = outcome.analysis.metrics.at(2);
  REQUIRE(system.spec.name == "system_time");
  CHECK(system.verdict == Verdict::inconclusive);
  // System time may read 0 (the kernel's tick accounting); read 0 in every run, it has no ratio.
  const auto rounds = outcome.analysis.measured_rounds;
  CHECK(system.estimate.note ==
        fmt::format("no ratio: {0} of {0} baseline and {0} of {0} candidate runs read 0 s, "
                    "below its resolution",
                    rounds));
}

TEST_CASE("analyze is a pure function of the runs", "[duel]") {
  Config config = duel_config();
  config.max_rounds = 40;
  ScriptedExecutor executor({0.1, 0.05}, {0.104, 0.05});
  const auto outcome = duel(config, executor);
  REQUIRE(outcome.runs.size() > 20);

  // The runs in a different container and order (rounds shuffled) give the same analysis.
  std::vector<RunRecord> shuffled(outcome.runs.rbegin(), outcome.runs.rend());
  for (const auto finality : {Finality::ongoing, Finality::final}) {
    const Analysis first = analyze(config, outcome.runs, finality);
    const Analysis second = analyze(config, outcome.runs, finality);
    const Analysis third = analyze(config, shuffled, finality);
    for (const Analysis* other : {&second, &third}) {
      CHECK(other->verdict == first.verdict);
      CHECK(other->can_stop == first.can_stop);
      CHECK(other->measured_rounds == first.measured_rounds);
      CHECK(note_texts(other->notes) == note_texts(first.notes));
      REQUIRE(other->metrics.size() == first.metrics.size());
      for (std::size_t m = 0; m < first.metrics.size(); ++m) {
        CHECK(other->metrics[m].verdict == first.metrics[m].verdict);
        CHECK(other->metrics[m].change == first.metrics[m].change);
        CHECK(other->metrics[m].ci.lo == first.metrics[m].ci.lo);
        CHECK(other->metrics[m].ci.hi == first.metrics[m].ci.hi);
        CHECK(other->metrics[m].baseline_median == first.metrics[m].baseline_median);
        CHECK(other->metrics[m].candidate_median == first.metrics[m].candidate_median);
      }
    }
  }
  // And the final analysis in the outcome is that of its runs.
  const Analysis again = analyze(config, outcome.runs, Finality::final);
  CHECK(again.verdict == outcome.analysis.verdict);
  CHECK(wall_time(again).change == wall_time(outcome.analysis).change);
}

TEST_CASE("every run gets a seeded random PERFDUEL_PAD length, both sides alike", "[duel]") {
  Config config = duel_config();
  config.min_rounds = 30;
  config.max_rounds = 30;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  duel(config, executor, 7);
  for (const Side side : {Side::baseline, Side::candidate}) {
    const auto& paddings = executor.paddings(side);
    REQUIRE(paddings.size() == 31);  // one warm-up round
    std::set<std::size_t> distinct;
    for (const auto& padding : paddings) {
      REQUIRE(padding.has_value());
      REQUIRE(*padding < 4096);
      distinct.insert(*padding);
    }
    CHECK(distinct.size() >= 25);
  }
  // The same seed, the same lengths; another seed, others.
  ScriptedExecutor again({0.1, 0.01}, {0.1, 0.01});
  duel(config, again, 7);
  CHECK(again.paddings(Side::candidate) == executor.paddings(Side::candidate));
  ScriptedExecutor other({0.1, 0.01}, {0.1, 0.01});
  duel(config, other, 8);
  CHECK(other.paddings(Side::candidate) != executor.paddings(Side::candidate));

  config.env_padding = false;
  ScriptedExecutor off({0.1, 0.01}, {0.1, 0.01});
  duel(config, off, 7);
  for (const auto& padding : off.paddings(Side::baseline)) {
    CHECK_FALSE(padding.has_value());
  }
}

TEST_CASE("a failed run within the retries replays its round, both sides", "[duel][retries]") {
  Config config = duel_config();
  config.order = Order::abba;
  config.retries = 2;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  // Candidate call 3 is measured round 2 (round 4), which is AB: the baseline ran already.
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call == 3) {
      result.exit_code = 3;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end != DuelEnd::benchmark_failed);
  CHECK(outcome.failure.empty());
  CHECK(outcome.retried == std::vector<std::string>{"candidate run in round 4: exited with code 3"});
  // The baseline run of the failed round was thrown away with it: one pair per round.
  for (const auto& [round, runs] : measured_rounds(outcome)) {
    INFO("round " << round);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0]->side != runs[1]->side);
  }
  CHECK(executor.order().size() == outcome.runs.size() + 2);
}

TEST_CASE("a duel fails once its retries are spent", "[duel][retries]") {
  Config config = duel_config();
  config.retries = 2;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  // Every second candidate run is killed: the third such run is one too many.
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call % 2 == 1) {
      result.status = RunStatus::signaled;
      result.signal = 9;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.retried.size() == 2);
  CHECK(outcome.failure == "candidate run in round 4: was killed by signal 9 (Killed)");
}

TEST_CASE("a program that cannot start is not retried", "[duel][retries]") {
  Config config = duel_config();
  config.retries = 5;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int /*call*/, RunResult& result) {
    if (side == Side::candidate) {
      result.status = RunStatus::failed_to_start;
      result.error = "./candidate: No such file or directory";
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.retried.empty());
}

TEST_CASE("processes a run left behind are counted once per duel", "[duel]") {
  Config config = duel_config();
  config.max_rounds = 20;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::baseline && call >= 2) {
      result.left_behind = 2;
    }
  });
  const auto outcome = duel(config, executor);
  CHECK(outcome.left_behind_first.rfind("baseline run in round 3", 0) == 0);
  CHECK(outcome.left_behind == 2 * (static_cast<int>(outcome.runs.size()) / 2 - 2));
}

TEST_CASE("a failing suite goes on, within a bound, to name every metric it slowed", "[duel][verdict]") {
  // wall_time three times slower settles by a sequence within about ten rounds; "slowed" (+40 %,
  // 15 % noise a run) needs more; "same" is unchanged with the same noise.
  Config config = duel_config();
  for (const char* name : {"slowed", "same"}) {
    MetricSpec metric;
    metric.name = name;
    metric.source = MetricSource::regex;
    metric.pattern = fmt::format(R"({}: ([0-9.]+))", name);
    metric.gating = Gating::gated;
    metric.threshold = 0.05;
    metric.tolerance = 0.02;
    config.metrics.push_back(metric);
  }
  const auto scripted = [](double slowed_factor, double sigma) {
    auto executor = std::make_unique<ScriptedExecutor>(ScriptedExecutor::Distribution{0.1, 0.01},
                                                       ScriptedExecutor::Distribution{0.3, 0.01});
    auto rng = std::make_shared<std::mt19937_64>(7);
    executor->set_tweak([rng, slowed_factor, sigma](Side side, int, RunResult& result) {
      std::normal_distribution<double> noise(0.0, sigma);
      const double slowed = 100 * (side == Side::candidate ? slowed_factor : 1.0) * std::exp(noise(*rng));
      result.out = fmt::format("slowed: {}\nsame: {}\n", slowed, 100 * std::exp(noise(*rng)));
    });
    return executor;
  };
  const auto metric = [](const DuelOutcome& outcome, const std::string& name) -> const MetricResult& {
    for (const auto& result : outcome.analysis.metrics) {
      if (result.spec.name == name) {
        return result;
      }
    }
    FAIL("no metric " << name);
    throw std::logic_error("unreachable");
  };

  // The measured round at which a sequence first settled a regression.
  const auto run = [&config](ScriptedExecutor& executor, int& settled_at) {
    settled_at = 0;
    return run_duel(config, executor, 42, [&settled_at](const Analysis& analysis, double) {
      if (settled_at == 0 && analysis.can_stop && analysis.stop == DuelEnd::regression_found) {
        settled_at = analysis.measured_rounds;
      }
    });
  };

  auto slower = scripted(1.4, 0.15);
  int settled_at = 0;
  const auto outcome = run(*slower, settled_at);
  REQUIRE(outcome.end == DuelEnd::regression_found);
  REQUIRE(settled_at > 0);
  CHECK(wall_time(outcome.analysis).verdict == Verdict::regression);
  // Went on past the first regression, and no further than the bound.
  CHECK(outcome.analysis.measured_rounds > settled_at);
  CHECK(outcome.analysis.measured_rounds <= settled_at + naming_rounds(settled_at));
  const MetricResult& slowed = metric(outcome, "slowed");
  INFO("slowed " << slowed.change << " [" << slowed.ci.lo << ", " << slowed.ci.hi << "] after "
                 << outcome.analysis.measured_rounds << " rounds, first regression at " << settled_at);
  CHECK((slowed.verdict == Verdict::regression || slowed.likely_regression));
  const MetricResult& same = metric(outcome, "same");
  CHECK(same.verdict != Verdict::regression);
  CHECK_FALSE(same.likely_regression);

  // Nothing else looks slower (1 % noise: no estimate near a threshold of 5 %): the duel stops
  // where the first regression settled.
  auto only_wall = scripted(1.0, 0.01);
  const auto alone = run(*only_wall, settled_at);
  REQUIRE(alone.end == DuelEnd::regression_found);
  CHECK(alone.analysis.measured_rounds == settled_at);

  CHECK(naming_rounds(3) == 10);
  CHECK(naming_rounds(24) == 24);
  CHECK(naming_rounds(400) == 50);
}
