#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "duel/verdict.hpp"

using namespace perfduel;

namespace {

MetricSpec metric(double tolerance, Direction direction = Direction::lower_is_better) {
  MetricSpec spec;
  spec.name = "wall_time";
  spec.tolerance = tolerance;
  spec.direction = direction;
  return spec;
}

}  // namespace

TEST_CASE("an interval outside the tolerance band is a regression or an improvement by direction",
          "[verdict]") {
  CHECK(verdict_outside_band({0.03, 0.05}, metric(0.02)) == Verdict::regression);
  CHECK(verdict_outside_band({-0.05, -0.03}, metric(0.02)) == Verdict::improvement);
  CHECK(verdict_outside_band({0.01, 0.05}, metric(0.02)) == Verdict::pending);
  CHECK(verdict_outside_band({0.03, 0.05}, metric(0.02, Direction::higher_is_better)) ==
        Verdict::improvement);
  CHECK(verdict_outside_band({-0.05, -0.03}, metric(0.02, Direction::higher_is_better)) ==
        Verdict::regression);
}

TEST_CASE("the width rule judges a narrow interval across a band edge by its estimate", "[verdict]") {
  // Known to within the threshold, its estimate inside the tolerance: no change.
  CHECK(judge_width({0.015, 0.025}, 0.019, metric(0.02), true, true) == Verdict::no_change);
  CHECK(judge_width({0.015, 0.025}, 0.019, metric(0.02), false, true) == Verdict::pending);
  CHECK(judge_width({0.015, 0.025}, 0.019, metric(0.02), true, false) == Verdict::pending);
  CHECK(judge_width({0.021, 0.025}, 0.023, metric(0.02), false, false) == Verdict::regression);
  // Its estimate beyond the tolerance and 0 excluded: a regression (an improvement below).
  CHECK(judge_width({0.015, 0.035}, 0.025, metric(0.02), true, true) == Verdict::regression);
  CHECK(judge_width({-0.035, -0.015}, -0.025, metric(0.02), true, true) == Verdict::improvement);
  CHECK(judge_width({0.015, 0.035}, 0.025, metric(0.02, Direction::higher_is_better), true, true) ==
        Verdict::improvement);
  // Beyond the tolerance but not excluding 0 (a tolerance under half the threshold): no change,
  // so that the estimate adds no false alarm where there is no change.
  CHECK(judge_width({-0.001, 0.019}, 0.009, metric(0.005), true, true) == Verdict::no_change);
}

TEST_CASE("a confidence sequence settles no-change only inside a band that exists", "[verdict]") {
  CHECK(judge_sequence({-0.01, 0.01}, metric(0.02)) == Verdict::no_change);
  CHECK(judge_sequence({-0.01, 0.03}, metric(0.02)) == Verdict::pending);
  CHECK(judge_sequence({-0.01, 0.01}, metric(0.0)) == Verdict::pending);
  CHECK(judge_sequence({0.01, 0.02}, metric(0.0)) == Verdict::regression);
}

TEST_CASE("the overall verdict and when the duel may stop", "[verdict]") {
  using V = Verdict;
  using S = SettledBy;
  SECTION("all settled: stop, pass or fail by the metrics") {
    const std::vector<GatedMetric> gated{{V::no_change, S::width}, {V::improvement, S::sequence}};
    const auto overall = overall_verdict(gated, true, Finality::ongoing);
    CHECK(overall.can_stop);
    CHECK(overall.end == DuelEnd::decided);
    CHECK(overall.verdict == V::improvement);
  }
  SECTION("one settled regression stops the duel while another metric is pending") {
    const std::vector<GatedMetric> gated{{V::regression, S::sequence}, {V::pending, S::none}};
    const auto overall = overall_verdict(gated, true, Finality::ongoing);
    CHECK(overall.can_stop);
    CHECK(overall.end == DuelEnd::regression_found);
    CHECK(overall.verdict == V::regression);
  }
  SECTION("a regression settled by the width rule waits for the other metrics") {
    const std::vector<GatedMetric> gated{{V::regression, S::width}, {V::pending, S::none}};
    CHECK_FALSE(overall_verdict(gated, true, Finality::ongoing).can_stop);
  }
  SECTION("an unsettled regression does not stop the duel, but fails it at the end") {
    const std::vector<GatedMetric> gated{{V::regression, S::none}, {V::no_change, S::width}};
    CHECK_FALSE(overall_verdict(gated, true, Finality::ongoing).can_stop);
    CHECK(overall_verdict(gated, true, Finality::ongoing).verdict == V::pending);
    CHECK(overall_verdict(gated, true, Finality::final).verdict == V::regression);
  }
  SECTION("before the minimum rounds nothing stops") {
    const std::vector<GatedMetric> gated{{V::no_change, S::width}};
    CHECK_FALSE(overall_verdict(gated, false, Finality::ongoing).can_stop);
  }
  SECTION("an undecided metric at the end makes the gate inconclusive") {
    const std::vector<GatedMetric> gated{{V::pending, S::none}, {V::no_change, S::width}};
    CHECK(overall_verdict(gated, true, Finality::final).verdict == V::inconclusive);
  }
}

TEST_CASE("duel ends have one name table, read back strictly", "[verdict]") {
  for (const auto end :
       {DuelEnd::decided, DuelEnd::regression_found, DuelEnd::round_budget, DuelEnd::time_budget,
        DuelEnd::benchmark_failed, DuelEnd::interrupted, DuelEnd::runs_ended}) {
    REQUIRE(duel_end_from_string(to_string(end)) == end);
  }
  CHECK(to_string(DuelEnd::regression_found) == "regression-found");
  CHECK_FALSE(duel_end_from_string("stopped"));
  CHECK(verdict_word(DuelEnd::benchmark_failed, Verdict::no_change) == "error");
  CHECK(verdict_word(DuelEnd::interrupted, Verdict::pending) == "interrupted");
  CHECK(verdict_word(DuelEnd::regression_found, Verdict::regression) == "regression");
}

TEST_CASE("exit codes of a finished duel", "[verdict]") {
  CHECK(exit_code_for(DuelEnd::interrupted, Verdict::regression, InconclusivePolicy::skip) ==
        ExitCode::interrupted);
  CHECK(exit_code_for(DuelEnd::benchmark_failed, Verdict::no_change, InconclusivePolicy::skip) ==
        ExitCode::benchmark_failed);
  CHECK(exit_code_for(DuelEnd::regression_found, Verdict::regression, InconclusivePolicy::skip) ==
        ExitCode::regression);
  CHECK(exit_code_for(DuelEnd::time_budget, Verdict::inconclusive, InconclusivePolicy::skip) ==
        ExitCode::inconclusive);
  CHECK(exit_code_for(DuelEnd::time_budget, Verdict::inconclusive, InconclusivePolicy::fail) ==
        ExitCode::regression);
}

TEST_CASE("a tolerance above 100 % decides regressions beyond it; its better side is out of reach",
          "[verdict]") {
  // tolerance 200 %: fail only beyond 3× slower.
  CHECK(verdict_outside_band({2.1, 2.5}, metric(2.0)) == Verdict::regression);
  CHECK(verdict_outside_band({1.5, 2.5}, metric(2.0)) == Verdict::pending);
  CHECK(verdict_outside_band({-0.9, -0.8}, metric(2.0)) == Verdict::pending);  // 10× faster: inside
  CHECK(judge_sequence({-0.2, 1.9}, metric(2.0)) == Verdict::no_change);
  CHECK(judge_sequence({-0.2, 2.1}, metric(2.0)) == Verdict::pending);
}

TEST_CASE("the end of a duel and Holm's step-down are judged here", "[verdict]") {
  CHECK(final_verdict(Verdict::pending, false) == Verdict::inconclusive);
  CHECK(final_verdict(Verdict::pending, true) == Verdict::unstable);
  CHECK(final_verdict(Verdict::no_change, true) == Verdict::no_change);
  CHECK(holm_verdict(true, true, Direction::lower_is_better, false, Finality::ongoing) ==
        Verdict::regression);
  CHECK(holm_verdict(true, true, Direction::higher_is_better, false, Finality::ongoing) ==
        Verdict::improvement);
  CHECK(holm_verdict(false, true, Direction::lower_is_better, true, Finality::ongoing) == Verdict::no_change);
  CHECK(holm_verdict(false, true, Direction::lower_is_better, false, Finality::ongoing) == Verdict::pending);
  CHECK(holm_verdict(false, true, Direction::lower_is_better, false, Finality::final) ==
        Verdict::inconclusive);
}

TEST_CASE("Holm's step-down decides over the gated metrics that no sequence settled", "[verdict]") {
  using V = Verdict;
  using S = SettledBy;
  const auto holm_metric = [](double p, Settlement settlement, bool width_settled = false) {
    HolmMetric holm;
    holm.has_estimate = true;
    holm.p_value = p;
    holm.settlement = settlement;
    holm.above = true;
    holm.width_settled = width_settled;
    return holm;
  };
  SECTION("the second step rejects at α where Bonferroni (α/2) would not") {
    const std::vector<HolmMetric> gated{holm_metric(0.01, {V::regression, S::width}, true),
                                        holm_metric(0.04, {V::no_change, S::width}, true)};
    const auto decisions = holm_step_down(gated, 0.05, Finality::final);
    REQUIRE(decisions.size() == 2);
    CHECK(decisions[0].verdict == V::regression);
    CHECK_FALSE(decisions[0].by_holm);  // the width rule had found it already
    CHECK(decisions[0].level == Approx(0.025));
    CHECK(decisions[1].verdict == V::regression);
    CHECK(decisions[1].by_holm);
    CHECK(decisions[1].level == Approx(0.05));
  }
  SECTION("a width-rule regression Holm does not reject falls back, pending → inconclusive at the end") {
    const std::vector<HolmMetric> gated{holm_metric(0.2, {V::regression, S::none}),
                                        holm_metric(0.3, {V::pending, S::none})};
    const auto ongoing = holm_step_down(gated, 0.05, Finality::ongoing);
    CHECK(ongoing[0].verdict == V::pending);
    CHECK(ongoing[1].verdict == V::pending);  // not rejected, not decided: as it was
    const auto final = holm_step_down(gated, 0.05, Finality::final);
    CHECK(final[0].verdict == V::inconclusive);
    CHECK_FALSE(final[0].by_holm);
    const std::vector<HolmMetric> narrow{holm_metric(0.2, {V::regression, S::width}, true)};
    CHECK(holm_step_down(narrow, 0.05, Finality::final)[0].verdict == V::no_change);
  }
  SECTION("a sequence's settlement and a metric without an estimate keep their verdicts") {
    HolmMetric without = holm_metric(0.0, {V::pending, S::none});
    without.has_estimate = false;  // its p-value is not one: never rejected
    const std::vector<HolmMetric> gated{holm_metric(0.9, {V::regression, S::sequence}),
                                        holm_metric(0.9, {V::regression, S::signs}), without};
    const auto decisions = holm_step_down(gated, 0.05, Finality::final);
    CHECK(decisions[0].verdict == V::regression);
    CHECK(decisions[1].verdict == V::regression);
    CHECK(decisions[2].verdict == V::pending);
    CHECK_FALSE(decisions[2].by_holm);
  }
  SECTION("a rejection's side is the direction's") {
    HolmMetric throughput = holm_metric(0.001, {V::pending, S::none});
    throughput.direction = Direction::higher_is_better;
    const std::vector<HolmMetric> gated{throughput};
    CHECK(holm_step_down(gated, 0.05, Finality::ongoing)[0].verdict == V::improvement);
  }
}

TEST_CASE("pending becomes inconclusive, or unstable, only at the end", "[verdict]") {
  for (const auto verdict : {Verdict::no_change, Verdict::improvement, Verdict::regression}) {
    CHECK(final_verdict(verdict, false) == verdict);
    CHECK(final_verdict(verdict, true) == verdict);
  }
  CHECK(final_verdict(Verdict::pending, false) == Verdict::inconclusive);
  CHECK(final_verdict(Verdict::pending, true) == Verdict::unstable);
  CHECK(is_undecided(Verdict::pending));
  CHECK(is_undecided(Verdict::inconclusive));
  CHECK(is_undecided(Verdict::unstable));
  CHECK_FALSE(is_undecided(Verdict::no_change));
  const std::vector<GatedMetric> pending{{Verdict::pending, SettledBy::none}};
  CHECK(overall_verdict(pending, true, Finality::ongoing).verdict == Verdict::pending);
  CHECK(overall_verdict(pending, true, Finality::final).verdict == Verdict::inconclusive);
}

TEST_CASE("the stopping rules settle a metric in their order of precedence", "[verdict]") {
  using V = Verdict;
  using S = SettledBy;
  const MetricSpec spec = metric(0.02);
  SECTION("the width rule settles once its width is reached after the minimum rounds") {
    const Settlement narrow = settle_by_width({0.015, 0.025}, 0.019, spec, true, true);
    CHECK(narrow.verdict == V::no_change);
    CHECK(narrow.settled_by == S::width);
    const Settlement outside = settle_by_width({0.03, 0.09}, 0.06, spec, false, true);
    CHECK(outside.verdict == V::regression);
    CHECK(outside.settled_by == S::none);  // a verdict, but not settled: the duel goes on
  }
  SECTION("anytime: the sequence settles whatever it says, after the minimum rounds") {
    const Settlement width{V::no_change, S::width};
    CHECK(settle_anytime(width, {-0.01, 0.01}, spec, true).settled_by == S::sequence);
    CHECK(settle_anytime(width, {-0.01, 0.01}, spec, false).settled_by == S::width);
    CHECK(settle_anytime(width, {-0.01, 0.03}, spec, true).settled_by == S::width);
  }
  SECTION("hybrid: the sequence settles an open metric, and overrides the width rule outside the band") {
    const Settlement open{V::pending, S::none};
    const Settlement width{V::regression, S::width};
    CHECK(settle_hybrid(open, {-0.01, 0.01}, spec).settled_by == S::sequence);
    CHECK(settle_hybrid(open, {-0.01, 0.03}, spec).settled_by == S::none);
    CHECK(settle_hybrid(width, {0.5, 1.5}, spec).settled_by == S::sequence);
    CHECK(settle_hybrid(Settlement{V::no_change, S::width}, {-0.01, 0.01}, spec).settled_by == S::width);
  }
  SECTION("the sign sequence overrides any settlement but a regression") {
    CHECK(settle_by_signs({V::no_change, S::width}, true).settled_by == S::signs);
    CHECK(settle_by_signs({V::regression, S::none}, true).settled_by == S::signs);
    CHECK(settle_by_signs({V::regression, S::sequence}, true).settled_by == S::sequence);
    CHECK(settle_by_signs({V::pending, S::none}, false).settled_by == S::none);
  }
  SECTION("the pass claim's interval settles only an open metric, inside the band") {
    CHECK(may_settle_by_equivalence({V::pending, S::none}));
    CHECK_FALSE(may_settle_by_equivalence({V::regression, S::none}));
    CHECK_FALSE(may_settle_by_equivalence({V::no_change, S::width}));
    const auto inside = settle_inside_band({-0.01, 0.01}, spec, S::width);
    REQUIRE(inside);
    CHECK(inside->verdict == V::no_change);
    CHECK_FALSE(settle_inside_band({-0.01, 0.03}, spec, S::width));
  }
  SECTION("a rule counts towards the stop only with an interval, but the sign sequence needs none") {
    CHECK(gated_metric({V::no_change, S::width}, false).settled_by == S::none);
    CHECK(gated_metric({V::regression, S::signs}, false).settled_by == S::signs);
    CHECK(gated_metric({V::no_change, S::sequence}, true).settled_by == S::sequence);
  }
}

TEST_CASE("the settling rules have one name table for reports and one for sentences", "[verdict]") {
  CHECK(util::name_of(k_settled_by_names, SettledBy::width) == "width");
  CHECK(util::name_of(k_settled_by_names, SettledBy::signs) == "signs");
  CHECK(util::value_of(k_settled_by_names, "sequence") == SettledBy::sequence);
  CHECK(util::name_of(k_settled_by_names, SettledBy::none).empty());
  CHECK(to_string(SettledBy::sequence) == "confidence sequence");
  CHECK(to_string(SettledBy::none).empty());
}
