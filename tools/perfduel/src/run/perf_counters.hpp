#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <linux/perf_event.h>

#include "config/config.hpp"
#include "util/expected.hpp"

// Hardware performance counters over one run (perf_event_open(2)). The counter group is opened
// by the child itself between fork and exec, disabled and armed with enable_on_exec, so that it
// counts from the exec of the benchmark and not the launcher's last steps; `inherit` makes it
// follow the benchmark's threads and child processes. The child hands the descriptors to the
// parent over a socket (SCM_RIGHTS) and closes its own on exec, so the benchmark sees no extra
// descriptor. The parent reads the group once the run has been reaped: a task's counts are
// folded into its parent event before its exit completes.
namespace perfduel {

// The attributes of a counter group for `events`, leader first. The leader is disabled and
// armed with enable_on_exec, the members follow it; every event counts user space only
// (exclude_kernel, exclude_hv: what a program's own code does, and what perf_event_paranoid 2
// allows an unprivileged user) and inherits to new threads and children. The leader reads the
// whole group (PERF_FORMAT_GROUP) with its enabled and running times, so that multiplexing is
// seen instead of silently scaled; group reads of inherited events sum the children (Linux ≥ 4.3).
std::vector<perf_event_attr> counter_group_attributes(std::span<const CountedEvent> events);

// Opens the group `attributes[0 .. count)` for the calling process on any CPU, with
// close-on-exec descriptors written to `fds`. Only system calls: safe in a vfork child.
// Returns 0, or the errno of the first failure after closing what it opened.
int open_counter_group(const perf_event_attr* attributes, std::size_t count, int* fds) noexcept;

// Sends `fds[0 .. count)` over the Unix socket `socket` (SCM_RIGHTS). Only system calls: safe in
// a vfork child. Returns 0 or the errno.
int send_descriptors(int socket, const int* fds, std::size_t count) noexcept;

// Receives `count` descriptors sent by send_descriptors on `socket` without waiting; they are
// close-on-exec. The error says what went wrong.
util::Expected<std::vector<int>> receive_descriptors(int socket, std::size_t count);

// Parses a group read in the layout counter_group_attributes asks for:
// {nr, time_enabled, time_running, value[nr]}. Refuses a group that did not count the whole run
// (time_running below time_enabled: the PMU multiplexed it, and a scaled count is an estimate,
// not a count) or never ran (time_enabled 0: the exec never happened).
util::Expected<std::vector<double>> parse_group_read(std::span<const std::uint64_t> words, std::size_t count);

// Reads the group whose leader is `leader_fd` (`count` events) and parses it.
util::Expected<std::vector<double>> read_counter_group(int leader_fd, std::size_t count);

// Why perf_event_open failed with `error`, with a hint: "No such file or directory (no PMU in
// this VM?)". `paranoid` is the text of /proc/sys/kernel/perf_event_paranoid, when readable
// (read_perf_event_paranoid, machine/facts.hpp).
std::string describe_counter_error(int error, const std::optional<std::string>& paranoid);

// Checks before any run that `events` can be counted here, by opening their group for this
// process. Empty when they can; otherwise the event that failed and why, e.g. hardware counter
// "instructions" is not available here: perf_event_open: No such file or directory (no PMU in
// this VM?).
struct CounterProbe {
  std::optional<CountedEvent> failed;  // the first event that cannot be opened
  std::string reason;                  // "perf_event_open: ..." with the hint
};
CounterProbe probe_counters(std::span<const CountedEvent> events);

// The counters of one run, as the process launcher uses them: before the launch it builds the
// attributes and a socket pair; the child calls open_in_child; after the launch the parent
// takes the descriptors (receive), and after reaping reads the counts (read).
class RunCounters {
 public:
  // `events` empty: inactive, every step does nothing.
  explicit RunCounters(std::span<const CountedEvent> events);
  ~RunCounters();
  RunCounters(const RunCounters&) = delete;
  RunCounters& operator=(const RunCounters&) = delete;

  bool active() const { return !m_events.empty(); }

  // Empty, or why the socket pair could not be made.
  const std::string& setup_error() const { return m_setup_error; }

  // In the child between fork and exec: opens the group and sends it to the parent. Returns 0
  // or the errno; only system calls.
  int open_in_child() const noexcept;

  // In the parent after the launch: takes the group's descriptors. Empty, or what went wrong.
  std::string receive();

  // In the parent after the run was reaped: the counts by event into `counts`. Empty, or what
  // went wrong.
  std::string read(std::map<CountedEvent, double>& counts) const;

 private:
  std::vector<CountedEvent> m_events;
  std::vector<perf_event_attr> m_attributes;
  std::array<int, 2> m_socket{-1, -1};  // [0] parent's end, [1] child's end
  std::vector<int> m_fds;               // the group, leader first, once received
  std::string m_setup_error;
};

}  // namespace perfduel
