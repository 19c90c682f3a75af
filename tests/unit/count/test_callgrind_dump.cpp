// Callgrind's dump files: the trigger and totals of one dump, and the windows between two
// function calls that a sequence of dumps describes (count/callgrind_dump.hpp). The fixtures are
// cut from real dumps of Valgrind 3.19 on a Google Benchmark 1.7.1 program.
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "count/callgrind_dump.hpp"

using namespace perfduel;

namespace {

constexpr const char* k_start = "--dump-before=benchmark::State::StartKeepRunning()";
constexpr const char* k_finish = "--dump-before=benchmark::State::FinishKeepRunning()";

std::string dump_text(const std::string& trigger, const std::string& totals) {
  return "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7299\n"
         "cmd:  ./suite --benchmark_filter=^BM_Hash/256$ --benchmark_format=json\npart: 12\n\n\n"
         "desc: I1 cache: \ndesc: D1 cache: \ndesc: LL cache: \n\n"
         "desc: Timerange: Basic block 29223981 - 75121618\n"
         "desc: Trigger: " +
         trigger + "\n\npositions: line\nevents: Ir\nsummary: " + totals + "\n\n\nob=(1) /lib/ld.so\n" +
         "fn=(0) 0x1ab70\n0 " + totals + "\n\ntotals: " + totals + "\n";
}

CallgrindDump dump(const std::string& trigger, double ir) {
  return {trigger, {{"Ir", ir}}, {}, {}};
}

}  // namespace

TEST_CASE("a callgrind dump: its trigger and its totals", "[callgrind]") {
  const auto read = parse_callgrind_dump(dump_text(k_finish, "274923627"));
  REQUIRE(read);
  CHECK(read->trigger == k_finish);
  REQUIRE(read->totals.size() == 1);
  CHECK(read->totals.at("Ir") == 274923627.0);
}

TEST_CASE("a callgrind dump names the functions that ran, compressed or not", "[callgrind]") {
  const auto read = parse_callgrind_dump(
      "events: Ir\nfn=(4450) benchmark::State::PauseTiming()\n0 12\ncfn=(4440) "
      "benchmark::State::ResumeTiming()\ncalls=1 0\nfn=(4450)\ncfn=std::sort<int*>(int*, int*)\ntotals: "
      "12\n");
  REQUIRE(read);
  CHECK(read->functions == std::set<std::string>{"benchmark::State::PauseTiming()",
                                                 "benchmark::State::ResumeTiming()",
                                                 "std::sort<int*>(int*, int*)"});
}

TEST_CASE("a callgrind dump with the cache simulation: every event, a trailing 0 left out", "[callgrind]") {
  const auto read = parse_callgrind_dump(
      "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ndesc: Trigger: Program termination\n"
      "summary: 1000 300 200 4 5 6 1 2\ntotals: 1000 300 200 4 5 6 1 2\n");
  REQUIRE(read);
  CHECK(read->trigger == "Program termination");
  CHECK(read->totals.at("D1mw") == 6.0);
  CHECK(read->totals.at("DLmw") == 0.0);
}

TEST_CASE("a callgrind dump of an older Valgrind: summary only", "[callgrind]") {
  const auto read = parse_callgrind_dump("events: Ir\nsummary: 42\n");
  REQUIRE(read);
  CHECK(read->totals.at("Ir") == 42.0);
  CHECK(read->trigger.empty());
}

TEST_CASE("a broken callgrind dump says which line is wrong", "[callgrind]") {
  CHECK(parse_callgrind_dump("totals: 1\n").error() == "no \"events:\" line");
  CHECK(parse_callgrind_dump("events: Ir\n").error() == "no \"totals:\" or \"summary:\" line");
  CHECK(parse_callgrind_dump("events: Ir\ntotals: 1 2\n").error() == "the totals have 2 values for 1 events");
  CHECK(parse_callgrind_dump("events: Ir\ntotals: x\n").error() == "total \"x\" of Ir is not a number");
}

TEST_CASE("call windows: Google Benchmark's runs, the iteration search's and the final one", "[callgrind]") {
  // As callgrind numbers them: setup until the first loop starts, then one window per run
  // (1, 10, ... iterations), each followed by the framework's work until the next starts.
  const std::vector<CallgrindDump> dumps{dump(k_start, 2901148),
                                         dump(k_finish, 16344),
                                         dump(k_start, 3680),
                                         dump(k_finish, 154671),
                                         dump(k_start, 2558),
                                         dump(k_finish, 274923627),
                                         dump("Program termination", 95043)};
  const auto found = call_windows(dumps, k_start, k_finish);
  CHECK_FALSE(found.overlapping);
  REQUIRE(found.windows.size() == 3);
  CHECK(found.windows[0].totals.at("Ir") == 16344.0);
  CHECK(found.windows.back().totals.at("Ir") == 274923627.0);
}

TEST_CASE("call windows of two threads overlap", "[callgrind]") {
  const std::vector<CallgrindDump> dumps{dump(k_start, 100), dump(k_start, 5), dump(k_finish, 900),
                                         dump(k_finish, 7)};
  const auto found = call_windows(dumps, k_start, k_finish);
  CHECK(found.overlapping);
}

TEST_CASE("call windows: none without the calls, a close without an open overlaps", "[callgrind]") {
  CHECK(call_windows(std::vector<CallgrindDump>{dump("Program termination", 5)}, k_start, k_finish)
            .windows.empty());
  const std::vector<CallgrindDump> closing_only{dump(k_finish, 9)};
  const auto found = call_windows(closing_only, k_start, k_finish);
  CHECK(found.overlapping);
  CHECK(found.windows.empty());
}

TEST_CASE("call windows: another dump inside a window spoils it", "[callgrind]") {
  const std::vector<CallgrindDump> dumps{dump(k_start, 10), dump("Program termination", 5),
                                         dump(k_finish, 9)};
  const auto found = call_windows(dumps, k_start, k_finish);
  CHECK(found.overlapping);
  CHECK(found.windows.empty());
}
