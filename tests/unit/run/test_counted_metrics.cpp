// Counted metrics: the parts of hardware counting that run without a PMU (attributes, the
// descriptor hand-over, parsing a group read, the messages), cachegrind's output and command
// line, the run plan, and the duel's Valgrind runs with a scripted executor. Counting itself
// needs a PMU, which the machines these tests run on may lack (the CLI test checks the error).
#include <cerrno>
#include <map>
#include <string>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/valgrind.hpp"
#include "duel/duel.hpp"
#include "duel/run_plan.hpp"
#include "run/metric_extractor.hpp"
#include "run/perf_counters.hpp"

using namespace perfduel;

TEST_CASE("counter group attributes: leader armed for exec, all inherited, user space", "[counters]") {
  const std::vector<CountedEvent> events{CountedEvent::instructions, CountedEvent::cycles,
                                         CountedEvent::branch_misses, CountedEvent::cache_misses};
  const auto attributes = counter_group_attributes(events);
  REQUIRE(attributes.size() == 4);
  CHECK(attributes[0].config == PERF_COUNT_HW_INSTRUCTIONS);
  CHECK(attributes[1].config == PERF_COUNT_HW_CPU_CYCLES);
  CHECK(attributes[2].config == PERF_COUNT_HW_BRANCH_MISSES);
  CHECK(attributes[3].config == PERF_COUNT_HW_CACHE_MISSES);
  CHECK(attributes[0].disabled == 1);
  CHECK(attributes[0].enable_on_exec == 1);
  CHECK(attributes[0].read_format ==
        (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING));
  for (const auto& attr : attributes) {
    CHECK(attr.type == PERF_TYPE_HARDWARE);
    CHECK(attr.size == sizeof(perf_event_attr));
    CHECK(attr.inherit == 1);
    CHECK(attr.exclude_kernel == 1);
    CHECK(attr.exclude_hv == 1);
    CHECK(attr.sample_period == 0);
  }
  for (std::size_t i = 1; i < attributes.size(); ++i) {
    CHECK(attributes[i].disabled == 0);  // members follow the leader
    CHECK(attributes[i].enable_on_exec == 0);
    CHECK(attributes[i].read_format == 0);
  }
}

TEST_CASE("a group read is parsed, and a multiplexed or idle group refused", "[counters]") {
  const std::vector<std::uint64_t> whole{2, 1000, 1000, 123456789, 98765};
  const auto values = parse_group_read(whole, 2);
  REQUIRE(values);
  CHECK(*values == std::vector<double>{123456789, 98765});

  const std::vector<std::uint64_t> multiplexed{2, 1000, 500, 61728394, 49382};
  const auto scaled = parse_group_read(multiplexed, 2);
  REQUIRE_FALSE(scaled);
  CHECK(scaled.error() ==
        "the counters ran only 50.0 % of the run (the PMU multiplexed them: too many events at once, or the "
        "NMI watchdog holds a counter); count fewer events");

  const std::vector<std::uint64_t> idle{1, 0, 0, 0};
  CHECK(parse_group_read(idle, 1).error() == "the counters never ran (was the program started?)");
  const std::vector<std::uint64_t> short_read{2, 10, 10, 5};
  CHECK(parse_group_read(short_read, 2).error() == "the counter group read 2 values, expected 2");
}

TEST_CASE("counter errors say why and what to do", "[counters]") {
  CHECK(describe_counter_error(ENOENT, std::string("2")) ==
        "perf_event_open: No such file or directory (no PMU in this VM?)");
  CHECK(
      describe_counter_error(EACCES, std::string("3")) ==
      "perf_event_open: Permission denied (perf_event_paranoid is 3; `sudo sysctl "
      "kernel.perf_event_paranoid=2` lets users count their own programs, or a container needs CAP_PERFMON)");
  CHECK(describe_counter_error(ENOSYS, std::nullopt) ==
        "perf_event_open: Function not implemented (this kernel has no perf events)");
}

TEST_CASE("counter descriptors pass from child to parent over a socket", "[counters]") {
  int sockets[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sockets) == 0);
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  CHECK(send_descriptors(sockets[1], pipe_fds, 2) == 0);
  const auto received = receive_descriptors(sockets[0], 2);
  REQUIRE(received);
  REQUIRE(received->size() == 2);
  // The received write end reaches the original read end.
  REQUIRE(::write(received->at(1), "x", 1) == 1);
  char byte = 0;
  REQUIRE(::read(pipe_fds[0], &byte, 1) == 1);
  CHECK(byte == 'x');
  for (const int fd : {pipe_fds[0], pipe_fds[1], received->at(0), received->at(1), sockets[0], sockets[1]}) {
    ::close(fd);
  }
  int empty[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, empty) == 0);
  CHECK_FALSE(receive_descriptors(empty[0], 1));
  ::close(empty[0]);
  ::close(empty[1]);
}

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

TEST_CASE("counted values are read from the run's counts", "[valgrind][counters]") {
  const Config config = parse_config(
      "metrics: {hw: {counter: instructions}, sim: {valgrind: instructions}, est: {valgrind: cycles}}",
      "gate.yaml");
  const MetricExtractor extractor(config.metrics);
  RunResult run;
  run.wall_seconds = 0.5;
  run.counters[CountedEvent::instructions] = 1000;
  run.simulated[CountedEvent::instructions] = 900;
  run.simulated[CountedEvent::cycles] = 1900;
  const auto values = extractor.extract(run);
  REQUIRE(values);
  CHECK(values->back() == 1900);
  CHECK(values->at(values->size() - 2) == 900);
  CHECK(values->at(values->size() - 3) == 1000);
  run.simulated.erase(CountedEvent::cycles);
  CHECK(extractor.extract(run).error() == "metric \"est\": the run has no valgrind count of cycles");
}

namespace {

// Plays both executors: plain runs report wall times, simulated runs instruction counts
// (baseline 1,000,000, candidate `candidate_count`), and every call is logged.
class CountingExecutor : public Executor {
 public:
  CountingExecutor(std::vector<std::string>& log, std::string kind, double candidate_count = 1e6)
      : m_log(log), m_kind(std::move(kind)), m_candidate_count(candidate_count) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    m_log.push_back(m_kind + " " + command.argv.at(0));
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = 0.1;
    result.user_seconds = 0.1;
    result.system_seconds = 0.01;
    result.max_rss_bytes = 1 << 20;
    if (m_kind == "valgrind") {
      result.wall_seconds = 4;  // the scripted Valgrind run takes long; the timeout is stretched
      CHECK(limits.counters.empty());
      result.simulated[CountedEvent::instructions] =
          command.argv.at(0) == "baseline" ? 1e6 : m_candidate_count;
    }
    m_now += result.wall_seconds;
    return result;
  }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

 private:
  std::vector<std::string>& m_log;
  std::string m_kind;
  double m_candidate_count;
  double m_now = 0;
};

Config counted_config(const std::string& metrics) {
  Config config = parse_config("order: abba\nmetrics:\n" + metrics, "gate.yaml");
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  return config;
}

}  // namespace

TEST_CASE("valgrind-only duels make no plain runs and stop after 3 rounds", "[valgrind][duel]") {
  std::vector<std::string> log;
  CountingExecutor plain(log, "plain");
  CountingExecutor valgrind(log, "valgrind", 1.01e6);
  const Config config = counted_config("  insns: {valgrind: instructions}\n");
  const auto outcome = run_duel(config, plain, &valgrind, 1, nullptr);
  CHECK(outcome.end == DuelEnd::decided);
  CHECK(outcome.analysis.verdict == Verdict::regression);
  CHECK(outcome.analysis.measured_rounds == 3);
  CHECK(log == std::vector<std::string>{"valgrind baseline", "valgrind candidate", "valgrind candidate",
                                        "valgrind baseline", "valgrind baseline", "valgrind candidate"});
  CHECK_THROWS_WITH(run_duel(config, plain, nullptr, 1, nullptr),
                    "valgrind metrics need a Valgrind executor");
}

TEST_CASE("with plain metrics gated, a round makes the plain runs first, then the Valgrind runs",
          "[valgrind][duel]") {
  std::vector<std::string> log;
  CountingExecutor plain(log, "plain");
  CountingExecutor valgrind(log, "valgrind");
  Config config = counted_config("  wall_time: {gate: true}\n  insns: {valgrind: instructions}\n");
  config.warmup = 0;
  config.min_rounds = 2;
  config.max_rounds = 2;
  const auto outcome = run_duel(config, plain, &valgrind, 1, nullptr);
  CHECK(log == std::vector<std::string>{"plain baseline", "plain candidate", "valgrind baseline",
                                        "valgrind candidate", "plain candidate", "plain baseline",
                                        "valgrind candidate", "valgrind baseline"});
  REQUIRE(outcome.runs.size() == 4);
  // Every record has both the plain run's wall time and the Valgrind run's count.
  CHECK(outcome.runs[0].values.front() == 0.1);
  CHECK(outcome.runs[0].values.back() == 1e6);
}
