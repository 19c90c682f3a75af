// Counting a whole process under cachegrind (count/valgrind.hpp): its output files and its
// command line.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "count/valgrind.hpp"

using namespace perfduel;

TEST_CASE("cachegrind output: events and summary", "[valgrind]") {
  const auto plain = parse_cachegrind_output(
      "desc: I1 cache: ...\ncmd: ./bench\nevents: Ir\nfl=x.c\n1 5\nsummary: 4143075\n");
  REQUIRE(plain);
  CHECK(plain->at("Ir") == 4143075);
  CHECK(simulated_value(*plain, CountedEvent::instructions).value() == 4143075);
  CHECK(simulated_value(*plain, CountedEvent::cycles).error() ==
        "cachegrind ran without its cache simulation, which the cycles estimate needs");

  const auto simulated = parse_cachegrind_output(
      "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw \nsummary: 4143061 1668 1615 439262 11175 7215 141860 "
      "1975 1204\n");
  REQUIRE(simulated);
  // Ir + 10·(I1mr + D1mr + D1mw) + 100·(ILmr + DLmr + DLmw)
  const double expected = 4143061 + 10.0 * (1668 + 11175 + 1975) + 100.0 * (1615 + 7215 + 1204);
  CHECK(estimated_cycles(*simulated) == expected);
  CHECK(simulated_value(*simulated, CountedEvent::cycles).value() == expected);
  CHECK(simulated_value(*simulated, CountedEvent::branch_misses).error() ==
        "valgrind does not count branch-misses");

  CHECK(parse_cachegrind_output("summary: 5\n").error() == "no \"events:\" line");
  CHECK(parse_cachegrind_output("events: Ir\n").error() ==
        "no \"summary:\" line (did the program end normally?)");
  CHECK(parse_cachegrind_output("events: Ir D1mr\nsummary: 5\n").error() ==
        "the summary has 1 totals for 2 events");
  CHECK(parse_cachegrind_output("events: Ir\nsummary: x\n").error() ==
        "summary total \"x\" of Ir is not a number");
}

TEST_CASE("the valgrind command keeps the program's arguments and sends cachegrind's files aside",
          "[valgrind]") {
  CommandSpec command{{"bench", "--size", "100"}, Launch::direct, "/work", {{"A", "1"}}};
  const auto plain =
      valgrind_command(command, "/usr/bin/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d");
  CHECK(plain.argv ==
        std::vector<std::string>{"/usr/bin/valgrind", "--tool=cachegrind", "--cache-sim=no",
                                 "--trace-children=yes", "--cachegrind-out-file=/tmp/d/cachegrind.out.%p",
                                 "--log-file=/tmp/d/valgrind.log.%p", "/usr/bin/bench", "--size", "100"});
  CHECK(plain.working_directory == "/work");
  CHECK(plain.environment == command.environment);
  CHECK(plain.launch == Launch::direct);

  CommandSpec script{{"./bench | tee out"}, Launch::shell, {}, {}};
  const auto shell = valgrind_command(script, "/bin/sh", "valgrind", CacheSimulation::on, "/tmp/d");
  CHECK(shell.argv ==
        std::vector<std::string>{"valgrind", "--tool=cachegrind", "--cache-sim=yes", "--trace-children=yes",
                                 "--cachegrind-out-file=/tmp/d/cachegrind.out.%p",
                                 "--log-file=/tmp/d/valgrind.log.%p", "--I1=32768,8,64", "--D1=32768,8,64",
                                 "--LL=8388608,16,64", "/bin/sh", "-c", "./bench | tee out"});
}
