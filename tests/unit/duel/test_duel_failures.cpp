// The duel loop through a scripted executor when runs fail: causes, retries, zero and missing
// values, processes left behind, and a failing suite that goes on to name what it slowed.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "support/scripted_duel.hpp"

using namespace perfduel;
using perfduel::testing::duel;
using perfduel::testing::duel_config;
using perfduel::testing::measured_rounds;
using perfduel::testing::ScriptedExecutor;
using perfduel::testing::wall_time;

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
