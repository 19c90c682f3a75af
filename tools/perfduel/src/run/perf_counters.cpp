#include "run/perf_counters.hpp"

#include <array>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine/facts.hpp"

namespace perfduel {

namespace {

// Enough for the four events a configuration can name.
constexpr std::size_t k_max_events = 8;

// Room for the descriptors of the most events in one SCM_RIGHTS message, aligned for its header.
struct alignas(cmsghdr) ControlBuffer {
  std::array<char, CMSG_SPACE(sizeof(int) * k_max_events)> bytes{};
};

// A message of the one byte in `data`, with all of `control` for its descriptors (a sender
// shrinks msg_controllen to the descriptors it sends).
msghdr descriptor_message(iovec& data, ControlBuffer& control) noexcept {
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes.data();
  message.msg_controllen = control.bytes.size();
  return message;
}

std::uint64_t hardware_event(CountedEvent event) {
  switch (event) {
    case CountedEvent::instructions:
      return PERF_COUNT_HW_INSTRUCTIONS;
    case CountedEvent::cycles:
      return PERF_COUNT_HW_CPU_CYCLES;
    case CountedEvent::branch_misses:
      return PERF_COUNT_HW_BRANCH_MISSES;
    case CountedEvent::cache_misses:
      return PERF_COUNT_HW_CACHE_MISSES;
    case CountedEvent::allocations:
    case CountedEvent::allocated_bytes:
    case CountedEvent::peak_heap:
      break;  // not a hardware event (config/names.hpp, k_hardware_events)
  }
  return PERF_COUNT_HW_INSTRUCTIONS;
}

int perf_event_open(const perf_event_attr* attributes, pid_t pid, int cpu, int group_fd,
                    unsigned long flags) noexcept {
  return static_cast<int>(::syscall(SYS_perf_event_open, attributes, pid, cpu, group_fd, flags));
}

}  // namespace

std::vector<perf_event_attr> counter_group_attributes(std::span<const CountedEvent> events) {
  std::vector<perf_event_attr> attributes;
  for (const CountedEvent event : events) {
    perf_event_attr attr{};
    attr.size = sizeof(perf_event_attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = hardware_event(event);
    attr.inherit = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    if (attributes.empty()) {
      attr.disabled = 1;
      attr.enable_on_exec = 1;
      attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    }
    attributes.push_back(attr);
  }
  return attributes;
}

int open_counter_group(const perf_event_attr* attributes, std::size_t count, int* fds) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    const int group = i == 0 ? -1 : fds[0];
    fds[i] = perf_event_open(&attributes[i], 0, -1, group, PERF_FLAG_FD_CLOEXEC);
    if (fds[i] < 0) {
      const int error = errno;
      for (std::size_t j = 0; j < i; ++j) {
        ::close(fds[j]);
      }
      return error;
    }
  }
  return 0;
}

int send_descriptors(int socket, const int* fds, std::size_t count) noexcept {
  if (count == 0 || count > k_max_events) {
    return EINVAL;
  }
  char byte = 'c';
  iovec data{&byte, 1};
  ControlBuffer control;
  msghdr message = descriptor_message(data, control);
  message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int) * count);
  std::memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
  return ::sendmsg(socket, &message, MSG_NOSIGNAL) == 1 ? 0 : errno;
}

util::Expected<std::vector<int>> receive_descriptors(int socket, std::size_t count) {
  using Result = util::Expected<std::vector<int>>;
  if (count == 0 || count > k_max_events) {
    return Result::failure(fmt::format("cannot receive {} counter descriptors", count));
  }
  char byte = 0;
  iovec data{&byte, 1};
  ControlBuffer control;
  msghdr message = descriptor_message(data, control);
  if (::recvmsg(socket, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1) {
    return Result::failure(fmt::format("the child sent no counter descriptors ({})", std::strerror(errno)));
  }
  const cmsghdr* header = CMSG_FIRSTHDR(&message);
  if (header == nullptr || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS ||
      header->cmsg_len != CMSG_LEN(sizeof(int) * count)) {
    return Result::failure("the child sent a malformed counter message");
  }
  std::vector<int> fds(count);
  std::memcpy(fds.data(), CMSG_DATA(header), sizeof(int) * count);
  return fds;
}

util::Expected<std::vector<double>> parse_group_read(std::span<const std::uint64_t> words,
                                                     std::size_t count) {
  using Result = util::Expected<std::vector<double>>;
  if (words.size() < 3 + count || words[0] != count) {
    return Result::failure(
        fmt::format("the counter group read {} values, expected {}", words.empty() ? 0 : words[0], count));
  }
  const std::uint64_t enabled = words[1];
  const std::uint64_t running = words[2];
  if (enabled == 0) {
    return Result::failure("the counters never ran (was the program started?)");
  }
  if (running < enabled) {
    return Result::failure(fmt::format(
        "the counters ran only {:.1f} % of the run (the PMU multiplexed them: too many events at once, "
        "or the NMI watchdog holds a counter); count fewer events",
        100.0 * static_cast<double>(running) / static_cast<double>(enabled)));
  }
  std::vector<double> values;
  values.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    values.push_back(static_cast<double>(words[3 + i]));
  }
  return values;
}

util::Expected<std::vector<double>> read_counter_group(int leader_fd, std::size_t count) {
  std::array<std::uint64_t, 3 + k_max_events> words{};
  const auto bytes = ::read(leader_fd, words.data(), sizeof(std::uint64_t) * (3 + count));
  if (bytes < 0) {
    return util::Expected<std::vector<double>>::failure(
        fmt::format("cannot read the counters: {}", std::strerror(errno)));
  }
  return parse_group_read(std::span(words.data(), static_cast<std::size_t>(bytes) / sizeof(std::uint64_t)),
                          count);
}

std::string describe_counter_error(int error, const std::optional<std::string>& paranoid) {
  std::string text = fmt::format("perf_event_open: {}", std::strerror(error));
  switch (error) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      return text + " (no PMU in this VM?)";
    case EACCES:
    case EPERM:
      return fmt::format(
          "{} (perf_event_paranoid is {}; `sudo sysctl kernel.perf_event_paranoid=2` lets users count their "
          "own programs, or a container needs CAP_PERFMON)",
          text, paranoid.value_or("unreadable"));
    case ENOSYS:
      return text + " (this kernel has no perf events)";
    default:
      return text;
  }
}

CounterProbe probe_counters(std::span<const CountedEvent> events) {
  CounterProbe probe;
  // One at a time first, so that the message names the event this machine cannot count.
  for (const CountedEvent event : events) {
    const auto attributes = counter_group_attributes(std::span(&event, 1));
    int fd = -1;
    if (const int error = open_counter_group(attributes.data(), 1, &fd); error != 0) {
      probe.failed = event;
      probe.reason = describe_counter_error(error, read_perf_event_paranoid());
      return probe;
    }
    ::close(fd);
  }
  const auto attributes = counter_group_attributes(events);
  std::array<int, k_max_events> fds{};
  if (events.size() > k_max_events) {
    probe.failed = events.front();
    probe.reason = fmt::format("at most {} counters at once", k_max_events);
    return probe;
  }
  if (const int error = open_counter_group(attributes.data(), attributes.size(), fds.data()); error != 0) {
    probe.failed = events.front();
    probe.reason = fmt::format("the group of {} counters cannot be opened together: {}", events.size(),
                               describe_counter_error(error, read_perf_event_paranoid()));
    return probe;
  }
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    ::close(fds[i]);
  }
  return probe;
}

RunCounters::RunCounters(std::span<const CountedEvent> events)
    : m_events(events.begin(), events.end()), m_attributes(counter_group_attributes(events)) {
  if (m_events.empty()) {
    return;
  }
  if (m_events.size() > k_max_events) {
    m_setup_error = fmt::format("at most {} hardware counters at once", k_max_events);
  } else if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, m_socket.data()) != 0) {
    m_setup_error = fmt::format("cannot create a socket for the counters: {}", std::strerror(errno));
    m_socket = {-1, -1};
  }
}

RunCounters::~RunCounters() {
  for (const int fd : m_fds) {
    ::close(fd);
  }
  for (const int fd : m_socket) {
    if (fd >= 0) {
      ::close(fd);
    }
  }
}

int RunCounters::open_in_child() const noexcept {
  if (m_events.empty()) {
    return 0;
  }
  std::array<int, k_max_events> fds{};
  const int error = open_counter_group(m_attributes.data(), m_attributes.size(), fds.data());
  if (error != 0) {
    return error;
  }
  // The child's own copies are close-on-exec; the parent's arrive with the message.
  return send_descriptors(m_socket[1], fds.data(), m_attributes.size());
}

std::string RunCounters::receive() {
  if (m_events.empty()) {
    return {};
  }
  auto fds = receive_descriptors(m_socket[0], m_events.size());
  if (!fds) {
    return fds.error();
  }
  m_fds = std::move(fds).value();
  return {};
}

std::string RunCounters::read(std::map<CountedEvent, double>& counts) const {
  if (m_events.empty()) {
    return {};
  }
  if (m_fds.empty()) {
    return "the counters were not received";
  }
  const auto values = read_counter_group(m_fds.front(), m_events.size());
  if (!values) {
    return values.error();
  }
  for (std::size_t i = 0; i < m_events.size(); ++i) {
    counts[m_events[i]] = (*values)[i];
  }
  return {};
}

}  // namespace perfduel
