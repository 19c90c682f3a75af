// The pull-request comment of `perfduel summary --comment` (report/suite_summary.hpp): what a
// reviewer reads first, and the marker by which CI finds the comment again.
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "report/suite_summary.hpp"

using namespace perfduel;

namespace {

GateMetricRow metric(std::string name, std::string verdict, std::string change = "+1.00 %",
                     std::string interval = "[+0.50 %, +1.50 %]") {
  GateMetricRow row;
  row.metric = std::move(name);
  row.verdict = std::move(verdict);
  row.change = std::move(change);
  row.interval = std::move(interval);
  row.threshold = 0.02;
  row.tolerance = 0.01;
  return row;
}

GateResult gate(std::string name, std::string verdict, std::vector<GateMetricRow> metrics,
                std::string reason = "") {
  GateResult result;
  result.name = std::move(name);
  result.verdict = std::move(verdict);
  result.reason = std::move(reason);
  result.rounds = 40;
  result.seconds = 12.5;
  result.metrics = std::move(metrics);
  return result;
}

// Five gates, one of each outcome a reviewer must tell apart.
std::vector<GateResult> mixed_suite() {
  return {
      gate("a_same", "no-change", {metric("wall_time", "no-change", "+0.10 %", "[-0.80 %, +1.00 %]")}),
      gate("b_slower", "regression",
           {metric("sort/BM_Sort/64", "no-change"),
            metric("sort/BM_Sort/4096", "regression", "+12.00 %", "[+9.00 %, +15.00 %]")}),
      gate("c_unsure", "inconclusive", {metric("wall_time", "inconclusive", "+1.20 %", "[-3.00 %, +5.10 %]")},
           "the time budget (max_seconds) ran out before every gated metric settled"),
      gate("d_new", "skipped", {}, "the baseline commit has no target \"d\""),
      gate("e_crash", "error", {}, "the candidate's run 3 crashed (SIGSEGV)"),
  };
}

}  // namespace

TEST_CASE("comment: the marker first, then the outcome in the heading", "[summary]") {
  const auto body = format_suite_comment(mixed_suite());
  REQUIRE(body.rfind("<!-- perfduel-summary -->\n", 0) == 0);
  CHECK(body.find("\n### perfduel: regression in 1 of 5 gates, 1 failed to run, 2 undecided\n") !=
        std::string::npos);
}

TEST_CASE("comment: regressed metrics first, then failed, then undecided gates", "[summary]") {
  const auto body = format_suite_comment(mixed_suite());
  const auto regressed = body.find("**Regressed**");
  const auto failed = body.find("**Failed to run**");
  const auto undecided = body.find("**Undecided**");
  const auto details = body.find("<details>");
  REQUIRE(regressed != std::string::npos);
  CHECK(regressed < failed);
  CHECK(failed < undecided);
  CHECK(undecided < details);
  // Only the metric that regressed, not the gate's other metrics.
  CHECK(body.find("| b_slower | sort/BM_Sort/4096 | +12.00 % | [+9.00 %, +15.00 %] |\n") < failed);
  CHECK(body.find("| b_slower | sort/BM_Sort/64 |") == std::string::npos);
  CHECK(body.find(
            "- **e_crash** (error after 40 rounds, 12.500 s): the candidate's run 3 crashed (SIGSEGV).\n") !=
        std::string::npos);
}

TEST_CASE("comment: an undecided gate says why and what is still open", "[summary]") {
  const auto body = format_suite_comment(mixed_suite());
  CHECK(body.find(
            "- **c_unsure** (inconclusive after 40 rounds, 12.500 s): the time budget (max_seconds) ran out "
            "before every gated metric settled. Still open: wall_time +1.20 % [-3.00 %, +5.10 %], not yet "
            "known to within its 2.00 % threshold nor outside ±1.00 %.\n") != std::string::npos);
  CHECK(body.find("- **d_new** (skipped): the baseline commit has no target \"d\".\n") != std::string::npos);
  CHECK(body.find("neither passed nor failed, so they do not fail the job") != std::string::npos);
}

TEST_CASE("comment: every gate folded below, counted", "[summary]") {
  const auto body = format_suite_comment(mixed_suite());
  CHECK(body.find("<details><summary>5 gates: 1 regression, 1 error, 1 inconclusive, 1 skipped, 1 no-change"
                  "</summary>") != std::string::npos);
  for (const char* name : {"a_same", "b_slower", "c_unsure", "d_new", "e_crash"}) {
    INFO(name);
    CHECK(body.find(fmt::format("| {} | **", name)) != std::string::npos);
  }
  CHECK(body.substr(body.size() - 11) == "</details>\n");
}

TEST_CASE("comment: headings without a regression", "[summary]") {
  const auto same = gate("a_same", "no-change", {metric("wall_time", "no-change")});
  const auto faster = gate("b_faster", "improvement", {metric("wall_time", "improvement", "-30.00 %")});
  const auto unsure = gate("c_unsure", "inconclusive", {metric("wall_time", "inconclusive")}, "budget");
  auto body = format_suite_comment({same, faster});
  CHECK(body.find("### perfduel: no regression in 2 gates (1 improved)\n") != std::string::npos);
  CHECK(body.find("**Regressed**") == std::string::npos);
  CHECK(body.find("**Undecided**") == std::string::npos);
  body = format_suite_comment({same, unsure});
  CHECK(body.find("### perfduel: no regression, but 1 of 2 gates undecided\n") != std::string::npos);
  body = format_suite_comment({same});
  CHECK(body.find("### perfduel: no regression in 1 gate\n") != std::string::npos);
  body = format_suite_comment({gate("e_crash", "error", {}, "crashed")});
  CHECK(body.find("### perfduel: 1 of 1 gates failed to run\n") != std::string::npos);
}

TEST_CASE("comment: the heading counts the undecided gates beside a regression", "[summary]") {
  // The mixed suite: one regression, one error, one inconclusive and one skipped gate.
  const auto body = format_suite_comment(mixed_suite());
  CHECK(body.find("<!-- perfduel-summary -->\n### perfduel: regression in 1 of 5 gates, 1 failed to run, "
                  "2 undecided\n") == 0);
  const auto unsure = gate("c_unsure", "inconclusive", {metric("wall_time", "inconclusive")}, "budget");
  const auto crash = gate("e_crash", "error", {}, "crashed");
  CHECK(
      format_suite_comment({crash, unsure}).find("### perfduel: 1 of 2 gates failed to run, 1 undecided\n") !=
      std::string::npos);
}

TEST_CASE("comment: names are escaped for Markdown tables and HTML", "[summary]") {
  const auto body = format_suite_comment(
      {gate("g", "regression", {metric("BM_Sort<int>|x", "regression", "+5.00 %", "[+4.00 %, +6.00 %]")})});
  CHECK(body.find("| g | BM_Sort&lt;int&gt;\\|x | +5.00 % | [+4.00 %, +6.00 %] |\n") != std::string::npos);
}

TEST_CASE("comment: a suite too big for one comment keeps its head", "[summary]") {
  std::vector<GateResult> gates;
  for (int i = 0; i < 3000; ++i) {
    gates.push_back(gate(fmt::format("gate_{:04}", i), i % 2 == 0 ? "regression" : "no-change",
                         {metric("wall_time", i % 2 == 0 ? "regression" : "no-change")}));
  }
  const auto body = format_suite_comment(gates);
  CHECK(body.size() <= k_comment_limit);
  CHECK(body.rfind("<!-- perfduel-summary -->\n### perfduel: regression in 1500 of 3000 gates\n", 0) == 0);
  CHECK(body.find("| gate_0000 | wall_time |") != std::string::npos);
  CHECK(body.find("more regressed metrics (the job summary lists them all)") != std::string::npos);
  CHECK(
      body.find("3000 gates: 1500 regression, 1500 no-change; their table is too long for a comment: see the "
                "job summary.\n") != std::string::npos);
  CHECK(body.find("<details>") == std::string::npos);
}
