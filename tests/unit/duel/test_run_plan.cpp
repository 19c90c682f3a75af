// What runs a duel makes (duel/run_plan.hpp): plain runs, Valgrind runs, hardware counters, as
// the metrics ask.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/run_plan.hpp"

using namespace perfduel;

TEST_CASE("the run plan follows the metrics", "[valgrind][counters]") {
  const auto plan_of = [](const std::string& yaml) { return plan_runs(parse_config(yaml, "gate.yaml")); };
  const auto defaults = plan_runs(default_config());
  CHECK(defaults.plain);
  CHECK_FALSE(defaults.valgrind);
  CHECK(defaults.counters.empty());

  const auto simulated = plan_of("metrics: {insns: {valgrind: instructions}}");
  CHECK_FALSE(simulated.plain);
  CHECK(simulated.valgrind);
  CHECK(simulated.cache == CacheSimulation::off);

  const auto cycles = plan_of("metrics: {insns: {valgrind: instructions}, est: {valgrind: cycles}}");
  CHECK(cycles.cache == CacheSimulation::on);

  const auto both = plan_of(
      "metrics: {a: {counter: instructions}, b: {counter: instructions, gate: false}, c: {counter: cycles}}");
  CHECK(both.plain);
  CHECK_FALSE(both.valgrind);
  CHECK(both.counters == std::vector<CountedEvent>{CountedEvent::instructions, CountedEvent::cycles});
}
