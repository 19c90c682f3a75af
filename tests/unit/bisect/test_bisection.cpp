// The walk of `perfduel bisect` (bisect/search.hpp) through a scripted Oracle, and the pieces
// around it: reading a duel's report at the cut, the probes' configuration, git's log, the
// gate file, git bisect's exit codes.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "bisect/commit_builder.hpp"
#include "bisect/commit_chain.hpp"
#include "bisect/duel_reading.hpp"
#include "bisect/gate_file.hpp"
#include "bisect/git_bisect_codes.hpp"
#include "bisect/probe_config.hpp"
#include "bisect/search.hpp"
#include "config/config.hpp"
#include "report_format/saved_report.hpp"

using namespace perfduel;
using namespace perfduel::bisect;

namespace {

// Commits whose benchmark is `level[i]` times as slow as commit 0's, judged exactly at a cut of
// 5 %; some do not build, some never settle, and an interrupt may come at a given duel.
class ScriptedOracle final : public Oracle {
 public:
  explicit ScriptedOracle(std::vector<double> level) : m_level(std::move(level)) {}

  BuildReading build(std::size_t index) override {
    ++m_builds[index];
    BuildReading reading;
    reading.seconds = 2.0;
    reading.ok = unbuildable.count(index) == 0;
    reading.reason = reading.ok ? "" : "error: expected ';'";
    reading.interrupted = interrupt_at_build == static_cast<int>(index);
    return reading;
  }

  DuelReading duel(std::size_t baseline, std::size_t candidate, int attempt, Role /*role*/) override {
    ++duels;
    attempts.push_back(attempt);
    DuelReading reading;
    reading.seconds = 1.0;
    reading.metric = "score";
    reading.cut = 0.05;
    if (interrupt_at_duel == duels) {
      reading.reading = Reading::interrupted;
      return reading;
    }
    if (noisy.count(candidate) != 0 && (attempt == 0 || noisy_twice)) {
      reading.reading = Reading::unresolved;
      reading.reason = "the round budget ran out";
      return reading;
    }
    const double change = m_level.at(candidate) / m_level.at(baseline) - 1.0;
    reading.change = change;
    reading.low = change;
    reading.high = change;
    reading.reading = change > 0.05 ? Reading::bad : Reading::good;
    return reading;
  }

  int builds_of(std::size_t index) const {
    const auto it = m_builds.find(index);
    return it == m_builds.end() ? 0 : it->second;
  }
  std::size_t distinct_builds() const { return m_builds.size(); }

  std::set<std::size_t> unbuildable;
  std::set<std::size_t> noisy;
  bool noisy_twice = true;
  int interrupt_at_duel = -1;
  int interrupt_at_build = -1;
  int duels = 0;
  std::vector<int> attempts;

 private:
  std::vector<double> m_level;
  std::map<std::size_t, int> m_builds;
};

// 32 commits: +1 % at `small`, +15 % more at `big`.
std::vector<double> levels(std::size_t small = 8, std::size_t big = 20, std::size_t count = 32) {
  std::vector<double> level(count, 1.0);
  for (std::size_t i = 0; i < count; ++i) {
    level[i] = (i >= small ? 1.01 : 1.0) * (i >= big ? 1.15 : 1.0);
  }
  return level;
}

SearchState search(ScriptedOracle& oracle, std::size_t last = 31) {
  SearchListener quiet;
  return run_search(last, oracle, quiet);
}

}  // namespace

TEST_CASE("bisect: the +15 % commit among 32, in 7 duels, each commit built once", "[bisect]") {
  ScriptedOracle oracle(levels());
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::found);
  REQUIRE(state.first_bad);
  CHECK(*state.first_bad == 20);
  CHECK(state.good == 19);
  CHECK(oracle.duels == 7);  // endpoints, ceil(log2 31) = 5 probes, confirmation
  CHECK(state.claims() == 7);
  CHECK(oracle.distinct_builds() == 7);
  for (const auto& build : state.builds) {
    CHECK(oracle.builds_of(build.index) == 1);
  }
  // The probes: the midpoint, then halves; the +1 % commits read good.
  std::vector<std::size_t> probed;
  for (const auto& duel : state.duels) {
    if (duel.role == Role::probe) {
      probed.push_back(duel.candidate);
    }
  }
  CHECK(probed == std::vector<std::size_t>{15, 23, 19, 21, 20});
  const DuelRecord& confirmation = state.duels.at(*state.confirmation);
  CHECK(confirmation.role == Role::confirmation);
  CHECK(confirmation.baseline == 19);
  CHECK(*confirmation.reading.change == Approx(0.15));
  CHECK(*state.duels.at(*state.against_good).reading.change == Approx(1.01 * 1.15 - 1));
}

TEST_CASE("bisect: wherever the regression is, it is found and confirmed", "[bisect]") {
  for (std::size_t big = 1; big <= 31; ++big) {
    INFO("regression at commit " << big);
    ScriptedOracle oracle(levels(big + 100, big));  // the +1 % never comes
    const SearchState state = search(oracle);
    CHECK(state.outcome == Outcome::found);
    CHECK(state.first_bad == big);
    // Against --good its parent needs no duel of its own: the probe was that duel.
    CHECK(oracle.duels <= (big == 1 ? 6 : 7));
    CHECK(oracle.distinct_builds() == static_cast<std::size_t>(oracle.duels - (big == 1 ? 0 : 1) + 1));
  }
}

TEST_CASE("bisect: one commit after --good", "[bisect]") {
  ScriptedOracle oracle({1.0, 1.2});
  const SearchState state = search(oracle, 1);
  CHECK(state.outcome == Outcome::found);
  CHECK(state.first_bad == 1);
  CHECK(oracle.duels == 1);  // the endpoints' duel is the confirmation
  CHECK(state.confirmation == state.endpoints);
}

TEST_CASE("bisect: a commit that does not build and one that stays inconclusive are skipped", "[bisect]") {
  ScriptedOracle oracle(levels());
  oracle.unbuildable = {15};
  oracle.noisy = {16};
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::found);
  CHECK(state.first_bad == 20);
  REQUIRE(state.skipped.size() == 2);
  CHECK(state.skipped[0].index == 15);
  CHECK(state.skipped[0].reason == "does not build: error: expected ';'");
  CHECK(state.skipped[1].index == 16);
  CHECK(state.skipped[1].reason == "inconclusive: the round budget ran out");
  // The noisy commit got a second attempt with more rounds before it was skipped.
  CHECK(std::count(oracle.attempts.begin(), oracle.attempts.end(), 1) == 1);
  CHECK(oracle.builds_of(15) == 1);
  CHECK(oracle.builds_of(16) == 1);
}

TEST_CASE("bisect: a second attempt that settles is a step like any other", "[bisect]") {
  ScriptedOracle oracle(levels());
  oracle.noisy = {15};
  oracle.noisy_twice = false;
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::found);
  CHECK(state.skipped.empty());
  CHECK(oracle.duels == 8);
  CHECK(state.claims() == 7);  // the inconclusive attempt claimed nothing
}

TEST_CASE("bisect: skipped commits next to the answer leave several candidates", "[bisect]") {
  ScriptedOracle oracle(levels());
  oracle.unbuildable = {19};
  oracle.noisy = {18};
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::ambiguous);
  CHECK(state.candidates == std::vector<std::size_t>{18, 19, 20});
  CHECK_FALSE(state.first_bad);
}

TEST_CASE("bisect: endpoints that do not differ end the search before anything else is built", "[bisect]") {
  ScriptedOracle oracle(levels(8, 100));  // only the +1 %
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::no_difference);
  CHECK(oracle.duels == 1);
  CHECK(oracle.distinct_builds() == 2);
}

TEST_CASE("bisect: undecided endpoints, a broken endpoint, an interrupt", "[bisect]") {
  {
    ScriptedOracle oracle(levels());
    oracle.noisy = {31};
    const SearchState state = search(oracle);
    CHECK(state.outcome == Outcome::undecided);
    CHECK(oracle.duels == 2);
  }
  {
    ScriptedOracle oracle(levels());
    oracle.unbuildable = {31};
    const SearchState state = search(oracle);
    CHECK(state.outcome == Outcome::endpoint_failed);
    CHECK(state.failure == "error: expected ';'");
    CHECK(oracle.duels == 0);
  }
  {
    ScriptedOracle oracle(levels());
    oracle.interrupt_at_duel = 3;
    const SearchState state = search(oracle);
    CHECK(state.outcome == Outcome::interrupted);
    CHECK(oracle.duels == 3);
  }
  {
    ScriptedOracle oracle(levels());
    oracle.interrupt_at_build = 15;
    const SearchState state = search(oracle);
    CHECK(state.outcome == Outcome::interrupted);
    CHECK(oracle.duels == 1);
  }
}

TEST_CASE("bisect: a change that builds up over several commits is found but not confirmed", "[bisect]") {
  // +2 % per commit from commit 10: past 5 % at commit 12, but no commit adds 5 % by itself.
  std::vector<double> level(32, 1.0);
  for (std::size_t i = 10; i < 32; ++i) {
    level[i] = level[i - 1] * 1.02;
  }
  ScriptedOracle oracle(level);
  const SearchState state = search(oracle);
  CHECK(state.outcome == Outcome::not_confirmed);
  CHECK(state.first_bad == 12);
  CHECK(state.duels.at(*state.confirmation).reading.reading == Reading::good);
}

TEST_CASE("bisect: the next probe is the unskipped commit nearest the middle", "[bisect]") {
  CHECK(next_probe(0, 31, {}) == 15u);
  CHECK(next_probe(0, 31, {{15, ""}}) == 16u);
  CHECK(next_probe(0, 31, {{15, ""}, {16, ""}}) == 14u);  // a tie: the lower
  CHECK(next_probe(4, 5, {}) == std::nullopt);
  CHECK(next_probe(4, 6, {{5, ""}}) == std::nullopt);
  CHECK(planned_duels(31) == 9);
  CHECK(planned_duels(32) == 9);
  CHECK(planned_duels(33) == 10);
  CHECK(planned_duels(1) == 4);
}

TEST_CASE("bisect: the estimate of what is left", "[bisect]") {
  SearchState state;
  state.last = 31;
  state.bad = 31;
  Estimate estimate = state.estimate();
  CHECK(estimate.candidates == 31);
  CHECK(estimate.duels_left == 1 + 5 + 1);
  CHECK_FALSE(estimate.seconds_left);
  state.endpoints = 0;
  state.builds = {{0, {true, false, false, 10.0, "", ""}}, {31, {true, false, false, 10.0, "", ""}}};
  DuelRecord duel;
  duel.reading.seconds = 4.0;
  state.duels = {duel};
  estimate = state.estimate();
  CHECK(estimate.duels_left == 6);
  CHECK(*estimate.seconds_left == Approx(5 * (10.0 + 4.0) + 4.0));
}

TEST_CASE("bisect: a duel's report read at the cut", "[bisect]") {
  // The JSON report `report` read as bisect reads it: through the report's one reader.
  const auto reading_of = [](const nlohmann::json& report) {
    return read_duel_report(report_from_json_lenient(nlohmann::ordered_json(report)));
  };
  const auto metric = [](double lo, double hi, const char* direction = "lower") {
    return nlohmann::json{{"name", "score"},   {"gated", true},           {"direction", direction},
                          {"tolerance", 0.05}, {"change", (lo + hi) / 2}, {"ci", {lo, hi}}};
  };
  // A vector, not a json: `nlohmann::json metrics` from `{metric(...)}` is an array of one with
  // GCC but a copy of the one object with Clang.
  const auto report = [](std::vector<nlohmann::json> metrics) {
    return nlohmann::json{{"verdict", "regression"},
                          {"end", "decided"},
                          {"measured_rounds", 3},
                          {"elapsed_seconds", 0.5},
                          {"metrics", nlohmann::json(std::move(metrics))}};
  };
  CHECK(reading_of(report({metric(0.06, 0.2)})).reading == Reading::bad);
  CHECK(reading_of(report({metric(-0.1, 0.05)})).reading == Reading::good);
  CHECK(reading_of(report({metric(0.01, 0.09)})).reading == Reading::unresolved);
  // Higher is better: worse is below −5 %.
  CHECK(reading_of(report({metric(-0.2, -0.06, "higher")})).reading == Reading::bad);
  CHECK(reading_of(report({metric(0.06, 0.2, "higher")})).reading == Reading::good);
  // One bad metric makes the commit bad; the worst bad one is shown.
  auto two = report({metric(-0.01, 0.01), metric(0.3, 0.4)});
  two["metrics"][1]["name"] = "size";
  const DuelReading bad = reading_of(two);
  CHECK(bad.reading == Reading::bad);
  CHECK(bad.metric == "size");
  CHECK(bad.rounds == 3);
  // Report-only metrics do not count.
  auto info = report({metric(-0.01, 0.01), metric(0.3, 0.4)});
  info["metrics"][1]["gated"] = false;
  CHECK(reading_of(info).reading == Reading::good);
  // No interval yet: unresolved, with the duel's end in words.
  auto open = report({metric(0, 0)});
  open["metrics"][0]["ci"] = nullptr;
  open["end"] = "round-budget";
  const DuelReading unresolved = reading_of(open);
  CHECK(unresolved.reading == Reading::unresolved);
  CHECK(
      unresolved.reason ==
      "the round budget (max_rounds) ran out before every gated metric settled; after 3 rounds score had no "
      "interval yet, against the cut +5.00 %");
  nlohmann::json failed{
      {"verdict", "error"}, {"end", "benchmark-failed"}, {"error", "candidate run: exit 2"}};
  CHECK(reading_of(failed).reading == Reading::failed);
  CHECK(reading_of(failed).reason == "candidate run: exit 2");
  CHECK(reading_of(nlohmann::json{{"verdict", "interrupted"}, {"end", "interrupted"}}).reading ==
        Reading::interrupted);
}

TEST_CASE("bisect: a count from or to 0 is read without an interval", "[bisect][allocations]") {
  const auto reading_of = [](const std::string& zero_side) {
    const nlohmann::json metric{{"name", "allocs"},        {"gated", true},          {"direction", "lower"},
                                {"unit", "allocs"},        {"tolerance", 0.001},     {"change", nullptr},
                                {"ci", nullptr},           {"read_zero", zero_side}, {"baseline_median", 0.0},
                                {"candidate_median", 3.0}, {"verdict", "regression"}};
    const nlohmann::json report{{"verdict", "regression"},
                                {"end", "decided"},
                                {"measured_rounds", 3},
                                {"elapsed_seconds", 0.5},
                                {"metrics", nlohmann::json(std::vector<nlohmann::json>{metric})}};
    return read_duel_report(report_from_json_lenient(nlohmann::ordered_json(report)));
  };
  const DuelReading added = reading_of("baseline");  // allocations new to the program: bad
  CHECK(added.reading == Reading::bad);
  CHECK(added.metric == "allocs");
  CHECK(reading_of("candidate").reading == Reading::good);  // every allocation taken out
}

TEST_CASE("bisect: the probes' configuration", "[bisect]") {
  Config config = parse_config(R"yaml(
metrics:
  wall_time: {threshold: 3%}
  size: {regex: "size: ([0-9]+)", threshold: 2%, gate: true, direction: higher}
max_rounds: 100
max_seconds: 60
)yaml",
                               "gate.yaml");
  ProbeSettings settings;
  settings.planned_duels = 9;
  const Config first = probe_config(config, settings, 0);
  CHECK(first.stopping == Stopping::anytime);
  CHECK(first.confidence == Approx(1 - 0.05 / 9));
  CHECK(first.max_rounds == 100);
  for (const MetricSpec* metric : first.gated_metrics()) {
    CHECK(metric->tolerance == metric->threshold);
  }
  CHECK(cut_text(first, "v1") ==
        "wall_time is higher than at v1 by more than 3.00 % or size is lower than at v1 by more than 2.00 %");
  settings.cut = 0.1;
  settings.max_seconds = 30;
  const Config second = probe_config(config, settings, 1);
  CHECK(second.max_rounds == 300);
  CHECK(second.max_seconds == Approx(90));
  for (const MetricSpec* metric : second.gated_metrics()) {
    CHECK(metric->tolerance == Approx(0.1));
  }
  settings.cut = 1.5;
  REQUIRE_THROWS_WITH(
      probe_config(config, settings, 0),
      "--threshold: size is higher-is-better, so it cannot get worse by 150.00 % or more; expected "
      "a --threshold below 100 %");
  Config nothing = default_config();  // a configuration file cannot say this; a program could
  nothing.origin = "none.yaml";
  for (MetricSpec& metric : nothing.metrics) {
    metric.gating = Gating::report_only;
  }
  REQUIRE_THROWS_WITH(
      probe_config(nothing, ProbeSettings{}, 0),
      "none.yaml: no metric is gated, so no duel can tell a bad commit from a good one; gate one "
      "(gate: true)");
  CHECK(duel_confidence(0.95, 1) == Approx(0.95));
  CHECK(duel_confidence(0.9999, 100) == Approx(0.9999));  // the most a configuration accepts
}

TEST_CASE("bisect: git's log, the gate file, substitutions", "[bisect]") {
  const auto entries = parse_log(
      "a1\x1fg0\x1f first\nb2\x1f"
      "a1 m9\x1fmerge: x\n");
  REQUIRE(entries);
  REQUIRE(entries->size() == 2);
  CHECK(entries->at(0).commit.id == "a1");
  CHECK(entries->at(0).commit.subject == " first");
  CHECK(entries->at(1).parents == std::vector<std::string>{"a1", "m9"});
  CHECK(parse_log("garbage").error() == "unexpected line from git log: \"garbage\"");

  const auto variables = parse_gate_variables(
      "# Generated\nset(PERFDUEL_TARGET [==[bench]==])\nset(PERFDUEL_RUN_ARGS [==[--size;100;a\\;b]==])\n"
      "set(PERFDUEL_EMPTY [==[]==])\n");
  CHECK(variables.at("PERFDUEL_TARGET") == "bench");
  CHECK(split_cmake_list(variables.at("PERFDUEL_RUN_ARGS")) ==
        std::vector<std::string>{"--size", "100", "a;b"});
  CHECK(split_cmake_list(variables.at("PERFDUEL_EMPTY")).empty());
  CHECK(is_multi_config("Ninja Multi-Config"));
  CHECK(is_multi_config("Visual Studio 17 2022"));
  CHECK_FALSE(is_multi_config("Ninja"));

  CHECK(substitute("cmake -S {dir} -B {dir}/b && echo {commit}", "c0ffee", "/w/c0") ==
        "cmake -S /w/c0 -B /w/c0/b && echo c0ffee");
  CHECK(short_id("0123456789abcdef") == "0123456789");
}

TEST_CASE("bisect: compare's exit codes for git bisect run", "[bisect]") {
  CHECK(git_bisect_exit_code(ExitCode::pass) == ExitCode::pass);
  CHECK(git_bisect_exit_code(ExitCode::regression) == ExitCode::regression);
  CHECK(to_int(git_bisect_exit_code(ExitCode::inconclusive)) == 125);
  CHECK(to_int(git_bisect_exit_code(ExitCode::benchmark_failed)) == 125);
  CHECK(to_int(git_bisect_exit_code(ExitCode::usage)) == 128);
  CHECK(to_int(git_bisect_exit_code(ExitCode::interrupted)) == 130);
  const char* with_space[] = {"perfduel", "compare", "--exit-codes", "git-bisect", "-b", "x"};
  const char* with_equals[] = {"perfduel", "compare", "--exit-codes=git-bisect"};
  const char* without[] = {"perfduel", "compare", "--exit-codes", "perfduel"};
  CHECK(asks_for_git_bisect_codes(6, with_space));
  CHECK(asks_for_git_bisect_codes(3, with_equals));
  CHECK_FALSE(asks_for_git_bisect_codes(4, without));
}
