// The commands that count a suite's benchmarks under callgrind (count/callgrind_command.hpp):
// callgrind around the user's arguments, then the filter; the suite's own minimum time.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "count/callgrind_command.hpp"

using namespace perfduel;

TEST_CASE("each benchmark's command: callgrind around the user's arguments, then the filter",
          "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash"};
  const auto wrapped = callgrind_benchmark_command(
      command, {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d", 250, {}},
      {"/tmp/d/callgrind.3", "/tmp/d/valgrind.log.3"}, std::vector<std::string>{"BM_Hash/16"});
  CHECK(wrapped.argv == std::vector<std::string>{
                            "/usr/bin/valgrind", "--tool=callgrind", "--cache-sim=no",
                            "--collect-atstart=yes", "--dump-before=benchmark::State::StartKeepRunning*",
                            "--dump-before=benchmark::State::FinishKeepRunning*",
                            "--callgrind-out-file=/tmp/d/callgrind.3", "--log-file=/tmp/d/valgrind.log.3",
                            "/work/bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash",
                            "--benchmark_filter=^BM_Hash/16$", "--benchmark_format=json",
                            "--benchmark_repetitions=1", "--v=2"});
  CHECK(wrapped.environment.at("LD_BIND_NOW") == "1");
  CHECK(wrapped.environment.count("LD_PRELOAD") == 0);
  // Counting allocations preloads the counter after the command's own preloads.
  command.environment["LD_PRELOAD"] = "/opt/libfast.so";
  const auto counting = callgrind_benchmark_command(
      command,
      {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d", 250, "/opt/libperfduel-alloc.so"},
      {"/tmp/d/callgrind.3", "/tmp/d/valgrind.log.3"}, std::vector<std::string>{"BM_Hash/16"});
  CHECK(counting.environment.at("LD_PRELOAD") == "/opt/libfast.so:/opt/libperfduel-alloc.so");
}

TEST_CASE("a suite is counted at its own minimum time, in the form the command gives", "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.01", "--benchmark_filter=BM_Hash"};
  const auto timed = with_min_time(command, 0.2);
  REQUIRE(timed);
  CHECK(timed->argv.back() == "--benchmark_min_time=0.2");
  command.argv = {"./bench", "--benchmark_min_time=0.05s"};
  CHECK(with_min_time(command, 1.5)->argv.back() == "--benchmark_min_time=1.5s");
  command.argv = {"./bench"};
  CHECK(with_min_time(command, 0.2)->argv.back() == "--benchmark_min_time=0.2");
  command.argv = {"./bench", "--benchmark_min_time=100x"};
  CHECK_FALSE(with_min_time(command, 0.2));
}
