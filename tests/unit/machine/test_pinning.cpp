#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "machine/pinning.hpp"
#include "run/benchmark_names.hpp"

using namespace perfduel;

namespace {

// A machine of `cores` cores with `threads` hardware threads each, numbered like Linux on
// x86 (the siblings of CPU c are c + cores, c + 2 * cores, ...), all allowed.
MachineFacts machine(int cores, int threads) {
  MachineFacts facts;
  for (int cpu = 0; cpu < cores * threads; ++cpu) {
    facts.online_cpus.push_back(cpu);
    std::vector<int> siblings;
    for (int t = 0; t < threads; ++t) {
      siblings.push_back(cpu % cores + t * cores);
    }
    facts.thread_siblings.push_back({cpu, format_cpu_list(siblings)});
  }
  facts.allowed_cpus = facts.online_cpus;
  facts.isolated = "\n";
  return facts;
}

EnvironmentLookup lookup_in(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
    const auto it = variables.find(name);
    return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

}  // namespace

TEST_CASE("auto pinning: CPU 1 on a two-CPU machine", "[pinning]") {
  const auto facts = machine(2, 1);
  const auto plan = plan_pinning(CpuMode::automatic, {}, "", facts, std::nullopt);
  CHECK(plan.resize_after_warmup);
  CHECK(plan.warmup.cpus == std::vector<int>{0, 1});  // the warm-up may use every candidate
  const auto pinning = settle_pinning(plan, facts, 0.98);
  CHECK(pinning.cpus == std::vector<int>{1});
  CHECK(pinning.source == PinningSource::automatic);
  CHECK(pinning.reason ==
        "CPU 1: chosen automatically from the CPUs 0-1 of this process (CPU 0 left to the system)");
  CHECK(pinning.parallelism == 0.98);
}

TEST_CASE("auto pinning: one CPU per core, CPU 0's core last", "[pinning]") {
  const auto facts = machine(4, 2);  // CPUs 0-7, siblings c and c + 4
  CHECK(benchmark_cpus(facts, true) == std::vector<int>{1, 2, 3});
  CHECK(benchmark_cpus(facts, false) == std::vector<int>{1, 2, 3, 0});
  CHECK(choose_cpus(facts, 1).cpus == std::vector<int>{1});
  const auto three = choose_cpus(facts, 3);
  CHECK(three.cpus == std::vector<int>{1, 2, 3});
  CHECK(three.reason ==
        "CPU 1-3: chosen automatically from the CPUs 0-7 of this process (CPU 0 left to the system, one per "
        "core)");
  // More than the cores away from CPU 0: CPU 0's core next, then siblings.
  CHECK(choose_cpus(facts, 4).cpus == std::vector<int>{0, 1, 2, 3});
  const auto six = choose_cpus(facts, 6);
  CHECK(six.cpus == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(six.reason ==
        "CPU 0-5: chosen automatically from the CPUs 0-7 of this process (SMT siblings share cores: too few "
        "cores, CPU 0 included: too few other CPUs)");
  CHECK(choose_cpus(facts, 9).reason.ends_with("only 8 CPUs for a benchmark that keeps 9 CPUs busy)"));
}

TEST_CASE("auto pinning prefers isolated CPUs within this process's affinity", "[pinning]") {
  auto facts = machine(8, 1);
  facts.isolated = "4-7\n";
  facts.allowed_cpus = {0, 1, 2, 3, 4, 5};  // 6 and 7 are outside this process's cpuset
  const auto pinning = choose_cpus(facts, 1);
  CHECK(pinning.cpus == std::vector<int>{4});
  CHECK(pinning.source == PinningSource::isolated);
  CHECK(pinning.reason == "CPU 4: chosen automatically from the isolated CPUs 4-5 of this process");
  CHECK(benchmark_cpus(facts, true) == std::vector<int>{4, 5});
  // Isolated SMT siblings: one per core.
  auto smt = machine(4, 2);
  smt.isolated = "2-3,6-7\n";
  CHECK(benchmark_cpus(smt, true) == std::vector<int>{2, 3});
}

TEST_CASE("a multi-threaded benchmark gets as many CPUs as the warm-up kept busy", "[pinning]") {
  CHECK(cpus_needed(0) == 1);
  CHECK(cpus_needed(1.0) == 1);
  CHECK(cpus_needed(1.2) == 1);
  CHECK(cpus_needed(1.9) == 2);
  CHECK(cpus_needed(3.8) == 4);
  const auto facts = machine(8, 2);
  const auto plan = plan_pinning(CpuMode::automatic, {}, "", facts, std::nullopt);
  const auto pinning = settle_pinning(plan, facts, 3.7);
  CHECK(pinning.cpus == std::vector<int>{1, 2, 3, 4});
  CHECK(pinning.reason.ends_with("; the warm-up kept 3.7 CPUs busy"));
  // No warm-up: one CPU, and the report says what to do about threads.
  CHECK(settle_pinning(plan, facts, 0).reason.ends_with("if it runs threads, set cpus: to a list"));
}

TEST_CASE("auto pinning: a suite whose benchmark runs threads gets a CPU for each", "[pinning]") {
  // A Google Benchmark suite of single-threaded benchmarks and one with Threads(2) keeps about
  // one CPU busy over the whole binary; the benchmark's name says it needs two.
  CHECK(benchmark_threads("BM_Queue/64/threads:4") == 4);
  CHECK(benchmark_threads("BM_Queue/threads:2/real_time") == 2);
  CHECK(benchmark_threads("BM_Queue/64") == 1);
  CHECK(benchmark_threads("BM_threads:3") == 1);        // not Google Benchmark's suffix
  CHECK(benchmark_threads("BM_Queue/threads:x") == 1);  // not a number
  MetricSpec single;
  single.source = MetricSource::google_benchmark;
  single.benchmark = "BM_Copy/256";
  MetricSpec threaded = single;
  threaded.benchmark = "BM_Share/threads:2";
  MetricSpec other;  // a regex metric whose name happens to look like one
  other.source = MetricSource::regex;
  other.benchmark = "x/threads:8";
  CHECK(most_benchmark_threads(std::vector<MetricSpec>{single, other}) == 1);
  CHECK(most_benchmark_threads(std::vector<MetricSpec>{single, threaded, other}) == 2);
  const auto facts = machine(8, 2);
  const auto plan = plan_pinning(CpuMode::automatic, {}, "", facts, std::nullopt);
  const auto pinning = settle_pinning(plan, facts, 1.1, 2);
  CHECK(pinning.cpus == std::vector<int>{1, 2});
  CHECK(pinning.reason.ends_with("; a benchmark runs 2 threads (by its name)"));
  // An explicit list is kept as given; the report then names the starved benchmarks.
  const auto list = plan_pinning(CpuMode::list, {3}, "gate.yaml", facts, std::nullopt);
  CHECK(settle_pinning(list, facts, 1.1, 2).cpus == std::vector<int>{3});
  // A suite counted two benchmarks at a time gets two CPUs, CPU 0 too on a machine of two.
  const auto two = machine(2, 1);
  const auto counted =
      settle_pinning(plan_pinning(CpuMode::automatic, {}, "", two, std::nullopt), two, 0.9, 1, 2);
  CHECK(counted.cpus == std::vector<int>{0, 1});
  CHECK(counted.reason.ends_with("; 2 runs counted at a time (a count does not depend on contention)"));
  CHECK(settle_pinning(list, facts, 0.9, 1, 2).cpus == std::vector<int>{3});
}

TEST_CASE("explicit lists, none and CTest's allocation are used as given", "[pinning]") {
  const auto facts = machine(4, 1);
  const auto list = plan_pinning(CpuMode::list, {2, 3}, "gate.yaml", facts, std::vector<int>{1});
  CHECK_FALSE(list.resize_after_warmup);
  CHECK(settle_pinning(list, facts, 1.0).cpus == std::vector<int>{2, 3});
  CHECK(list.warmup.reason == "CPU 2-3: from gate.yaml");
  const auto none = plan_pinning(CpuMode::none, {}, "", facts, std::nullopt);
  CHECK(none.warmup.cpus.empty());
  CHECK(none.warmup.reason == "not pinned (cpus: none)");
  const auto ctest = plan_pinning(CpuMode::automatic, {}, "", facts, std::vector<int>{0, 3});
  CHECK_FALSE(ctest.resize_after_warmup);
  CHECK(ctest.warmup.cpus == std::vector<int>{0, 3});
  CHECK(ctest.warmup.source == PinningSource::ctest);
  CHECK(ctest.warmup.reason == "CPU 0,3: allocated by CTest (resource \"cpus\")");
}

TEST_CASE("CTest's resource group variables", "[pinning]") {
  CHECK_FALSE(*ctest_allocated_cpus(lookup_in({})));
  const auto two = ctest_allocated_cpus(lookup_in({{"CTEST_RESOURCE_GROUP_COUNT", "2"},
                                                   {"CTEST_RESOURCE_GROUP_0", "cpus"},
                                                   {"CTEST_RESOURCE_GROUP_0_CPUS", "id:5,slots:1"},
                                                   {"CTEST_RESOURCE_GROUP_1", "gpus,cpus"},
                                                   {"CTEST_RESOURCE_GROUP_1_GPUS", "id:0,slots:1"},
                                                   {"CTEST_RESOURCE_GROUP_1_CPUS", "id:3,slots:1"}}));
  REQUIRE(two);
  REQUIRE(*two);
  CHECK(**two == std::vector<int>{3, 5});
  const auto several =
      ctest_allocated_cpus(lookup_in({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                      {"CTEST_RESOURCE_GROUP_0", "cpus"},
                                      {"CTEST_RESOURCE_GROUP_0_CPUS", "id:1,slots:1;id:2,slots:1"}}));
  CHECK(**several == std::vector<int>{1, 2});
  // Other resources only: nothing for pinning.
  CHECK_FALSE(*ctest_allocated_cpus(lookup_in({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                               {"CTEST_RESOURCE_GROUP_0", "gpus"},
                                               {"CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1"}})));
  const auto named = ctest_allocated_cpus(lookup_in({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                                     {"CTEST_RESOURCE_GROUP_0", "cpus"},
                                                     {"CTEST_RESOURCE_GROUP_0_CPUS", "id:core_a,slots:1"}}));
  REQUIRE_FALSE(named);
  CHECK(named.error() ==
        "CTEST_RESOURCE_GROUP_0_CPUS=\"id:core_a,slots:1\": \"id:core_a,slots:1\" is not a CPU id; the "
        "resource "
        "spec file must name each CPU by its number (perfduel doctor --resource-spec FILE writes one)");
}

TEST_CASE("a resource spec file lists CPUs with one slot each", "[pinning]") {
  CHECK(resource_spec_json({1, 3}) == R"({
  "version": {
    "major": 1,
    "minor": 0
  },
  "local": [
    {
      "cpus": [
        {
          "id": "1",
          "slots": 1
        },
        {
          "id": "3",
          "slots": 1
        }
      ]
    }
  ]
}
)");
}
