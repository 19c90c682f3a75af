// Hardware counting (run/perf_counters.hpp): the parts that run without a PMU (attributes, the
// descriptor hand-over, parsing a group read, the messages). Counting itself needs a PMU, which
// the machines these tests run on may lack (the CLI test checks the error).
#include <cerrno>
#include <string>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
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
