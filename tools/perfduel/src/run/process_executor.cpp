#include "run/process_executor.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

#include <boost/asio/io_context.hpp>
#include <boost/process/v2/environment.hpp>
#include <boost/process/v2/posix/vfork_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/perf_counters.hpp"
#include "run/signals.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace perfduel {

namespace bp = boost::process::v2;

namespace {

constexpr std::size_t k_max_stdout_bytes = k_max_stdout_mib << 20U;  // metrics come from stdout
constexpr std::size_t k_max_stderr_bytes = 64U << 10U;               // only the tail is ever shown

// A pipe whose ends close themselves.
class Pipe {
 public:
  // `open` false: no pipe (both ends -1), for one that is only needed sometimes.
  explicit Pipe(bool open = true) {
    if (open && ::pipe2(m_fds.data(), O_CLOEXEC) != 0) {
      m_fds = {-1, -1};
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  bool ok() const { return m_fds[0] >= 0; }
  int read_end() const { return m_fds[0]; }
  int write_end() const { return m_fds[1]; }
  void close_read() { close_end(0); }
  void close_write() { close_end(1); }

 private:
  void close_end(std::size_t end) {
    if (m_fds[end] >= 0) {
      ::close(m_fds[end]);
      m_fds[end] = -1;
    }
  }
  std::array<int, 2> m_fds{-1, -1};
};

// Runs in the child between vfork and exec: its own process group (so a timeout kills
// everything it started) and the CPU affinity, so the benchmark never runs unpinned. The
// child shares the parent's memory until exec, so it only makes system calls here; the CPU
// set is built by the parent.
struct ChildSetup {
  const cpu_set_t* cpus;        // null: no pinning
  const RunCounters* counters;  // hardware counters, opened here to count from the exec

  template <typename Launcher>
  bp::error_code on_exec_setup(Launcher& /*launcher*/, const bp::filesystem::path& /*executable*/,
                               const char* const* /*argv*/) const {
    if (::setpgid(0, 0) != 0) {
      return {errno, bp::system_category()};
    }
    // Dies with perfduel, even when perfduel is killed with SIGKILL and cannot clean up
    // (perfduel-exec's runs are not covered: their parent is the stub, which exits at once).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (cpus != nullptr && ::sched_setaffinity(0, sizeof(cpu_set_t), cpus) != 0) {
      return {errno, bp::system_category()};
    }
    if (const int error = counters->open_in_child(); error != 0) {
      return {error, bp::system_category()};
    }
    return {};
  }

  // Boost 1.81's vfork launcher calls exit() after a failed exec, which would run the
  // parent's atexit handlers in the shared address space; leave with _exit first. The
  // error code is already stored, and the parent reports it.
  template <typename Launcher>
  void on_exec_error(Launcher& /*launcher*/, const bp::filesystem::path& /*executable*/,
                     const char* const* /*argv*/, const bp::error_code& /*ec*/) const {
    ::_exit(127);
  }
};

// The inherited environment with the command's `overrides`, and PERFDUEL_PAD of
// `padding_bytes` characters when given (see Config::env_padding).
std::vector<std::string> run_environment(const std::map<std::string, std::string>& overrides,
                                         std::optional<std::size_t> padding_bytes) {
  constexpr std::string_view k_padding_name = "PERFDUEL_PAD";
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto name = text.substr(0, text.find('='));
    if (overrides.find(std::string(name)) == overrides.end() && !(padding_bytes && name == k_padding_name)) {
      environment.emplace_back(text);
    }
  }
  for (const auto& [name, value] : overrides) {
    environment.push_back(fmt::format("{}={}", name, value));
  }
  if (padding_bytes) {
    environment.push_back(fmt::format("{}={}", k_padding_name, std::string(*padding_bytes, 'x')));
  }
  return environment;
}

double seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
}

// Appends what is readable on `fd` to `buffer`, keeping at most `cap` bytes (the head for
// stdout, the tail for stderr); sets `dropped` when bytes were left out. Returns false at end
// of file.
bool drain(int fd, std::string& buffer, std::size_t cap, bool keep_tail, bool& dropped) {
  std::array<char, 65536> chunk{};
  const auto count = ::read(fd, chunk.data(), chunk.size());
  if (count <= 0) {
    return count < 0 && (errno == EINTR || errno == EAGAIN);
  }
  const auto size = static_cast<std::size_t>(count);
  if (keep_tail) {
    buffer.append(chunk.data(), size);
    if (buffer.size() > cap) {
      buffer.erase(0, buffer.size() - cap);
      dropped = true;
    }
  } else {
    const std::size_t kept = std::min(size, cap - std::min(cap, buffer.size()));
    buffer.append(chunk.data(), kept);
    dropped = dropped || kept < size;
  }
  return true;
}

}  // namespace

util::Expected<std::filesystem::path> resolve_program(const std::string& program,
                                                      const std::filesystem::path& working_directory) {
  using Result = util::Expected<std::filesystem::path>;
  std::filesystem::path path;
  if (program.find('/') == std::string::npos) {
    path = bp::environment::find_executable(program).string();
    if (path.empty()) {
      return Result::failure(fmt::format("'{}': command not found on PATH", program));
    }
  } else {
    path = program;
    if (path.is_relative() && !working_directory.empty()) {
      path = working_directory / path;
    }
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return Result::failure(fmt::format("'{}': no such file", program));
  }
  if (std::filesystem::is_directory(path, ec)) {
    return Result::failure(fmt::format("'{}' is a directory, not a program", program));
  }
  if (::access(path.c_str(), X_OK) != 0) {
    return Result::failure(fmt::format("'{}' is not executable (chmod +x?)", program));
  }
  return std::filesystem::absolute(path);
}

ProcessExecutor::ProcessExecutor() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

ProcessExecutor::ProcessExecutor(std::filesystem::path exec_stub) : m_exec_stub(std::move(exec_stub)) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

std::filesystem::path find_exec_stub(std::string& searched) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    searched = "/proc/self/exe is unreadable";
    return {};
  }
  const auto directory = self.parent_path();
  const std::filesystem::path candidates[] = {
      directory / "perfduel-exec", directory.parent_path() / "libexec" / "perfduel" / "perfduel-exec"};
  searched.clear();
  for (const auto& candidate : candidates) {
    searched += (searched.empty() ? "" : ", ") + candidate.string();
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

namespace {

// What perfduel-exec reports: the started run's pid, when it started, and the exec's errno.
struct StubReport {
  pid_t pid = 0;
  std::chrono::steady_clock::time_point start;
  int exec_errno = 0;
};

// Reads perfduel-exec's line "PID START_NS EXEC_ERRNO" from `fd`.
std::optional<StubReport> read_stub_report(int fd) {
  std::array<char, 128> buffer{};
  const auto count = ::read(fd, buffer.data(), buffer.size() - 1);
  if (count <= 0) {
    return std::nullopt;
  }
  std::array<long long, 3> fields{};
  const char* cursor = buffer.data();
  for (auto& field : fields) {
    char* end = nullptr;
    errno = 0;
    field = std::strtoll(cursor, &end, 10);
    if (end == cursor || errno != 0) {
      return std::nullopt;
    }
    cursor = end;
  }
  return StubReport{static_cast<pid_t>(fields[0]),
                    std::chrono::steady_clock::time_point(std::chrono::nanoseconds(fields[1])),
                    static_cast<int>(fields[2])};
}

// The program to start and its arguments: /bin/sh -c for a shell command, else the program
// resolved once per working directory and name through `cache` (PATH lookup and file checks
// once per command, not once per run).
util::Expected<std::pair<std::string, std::vector<std::string>>> program_and_arguments(
    const CommandSpec& command, std::map<std::string, std::string>& cache) {
  using Result = util::Expected<std::pair<std::string, std::vector<std::string>>>;
  if (command.launch == Launch::shell) {
    return std::pair<std::string, std::vector<std::string>>{"/bin/sh", {"-c", command.argv.front()}};
  }
  const auto key = command.working_directory.string() + '\0' + command.argv.front();
  auto cached = cache.find(key);
  if (cached == cache.end()) {
    auto resolved = resolve_program(command.argv.front(), command.working_directory);
    if (!resolved) {
      return Result::failure(resolved.error());
    }
    cached = cache.emplace(key, resolved.value().string()).first;
  }
  return std::pair<std::string, std::vector<std::string>>{
      cached->second, std::vector<std::string>(command.argv.begin() + 1, command.argv.end())};
}

// The pipes of one run and what is still open of them.
struct Streams {
  Pipe out;
  Pipe err;
  bool out_open = true;
  bool err_open = true;

  bool open() const { return out_open || err_open; }

  // Reads what poll() found ready (`out_events`, `err_events`) into `result`.
  void read(short out_events, short err_events, RunResult& result) {
    if (out_events != 0) {
      out_open = drain(out.read_end(), result.out, k_max_stdout_bytes, false, result.out_truncated);
    }
    if (err_events != 0) {
      bool dropped = false;  // only the tail of stderr is ever shown
      err_open = drain(err.read_end(), result.err, k_max_stderr_bytes, true, dropped);
    }
  }
};

// Starts `executable` with `arguments` in `command`'s directory and environment, stdout and
// stderr into `streams`, pinned to `limits.cpus`, counted by `counters`; `report_fd` (or -1)
// stays open for the stub. Sets `start` just before the spawn. Throws what Boost.Process throws.
bp::process launch_child(boost::asio::io_context& context, const CommandSpec& command,
                         const RunLimits& limits, const RunCounters& counters,
                         const bp::filesystem::path& executable, const std::vector<std::string>& arguments,
                         Streams& streams, int report_fd, std::chrono::steady_clock::time_point& start) {
  const bp::filesystem::path directory =
      (command.working_directory.empty() ? std::filesystem::current_path() : command.working_directory)
          .string();
  cpu_set_t cpu_set;
  CPU_ZERO(&cpu_set);
  for (const int cpu : limits.cpus) {
    CPU_SET(cpu, &cpu_set);
  }
  const ChildSetup setup{limits.cpus.empty() ? nullptr : &cpu_set, &counters};
  // vfork: the parent's address space is not copied, which is most of the cost of a
  // spawn for a short benchmark (measured in docs/performance.md).
  bp::posix::vfork_launcher launch;
  if (report_fd >= 0) {
    launch.fd_whitelist.push_back(report_fd);
  }
  bp::process_stdio stdio{nullptr, streams.out.write_end(), streams.err.write_end()};
  start = std::chrono::steady_clock::now();
  if (command.environment.empty() && !limits.env_padding_bytes) {
    return launch(context, executable, arguments, stdio, bp::process_start_dir{directory}, setup);
  }
  return launch(context, executable, arguments, stdio, bp::process_start_dir{directory},
                bp::process_environment{run_environment(command.environment, limits.env_padding_bytes)},
                setup);
}

// Boost 1.81's process::native_handle() does not compile, so open our own pidfd: it becomes
// readable when the child exits and lets one poll() wait for exit, pipes and timeout together.
int open_pidfd(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

// The process waited for. Its process group is the first child's own; `pid` is that child,
// or through perfduel-exec first the stub and then the run it started.
struct Waited {
  pid_t group = 0;
  pid_t pid = 0;
  int pidfd = -1;
  bool stub_running = false;
  bool exited = false;
  std::chrono::steady_clock::time_point start;
  std::chrono::steady_clock::time_point end;
};

// perfduel-exec started the run and exited: reaps the stub, then waits for the run, which is
// ours now (child subreaper), timed from the stub's clock reading before the start. Returns
// why the run did not start (`program`, `stub` name them), empty when it did.
std::string take_over_from_stub(Waited& waited, int report_fd, const std::string& stub,
                                const std::string& program) {
  waited.stub_running = false;
  int stub_status = 0;
  while (::wait4(waited.pid, &stub_status, 0, nullptr) < 0 && errno == EINTR) {
  }
  const auto report = read_stub_report(report_fd);
  if (!report || report->pid <= 0 || report->exec_errno != 0) {
    waited.pid = report && report->pid > 0 ? report->pid : -1;  // reaped later
    return !report ? fmt::format("perfduel-exec ({}) did not report the start of {}", stub, program)
                   : fmt::format("cannot start {}: {}", program,
                                 std::strerror(report->exec_errno != 0 ? report->exec_errno : EAGAIN));
  }
  if (waited.pidfd >= 0) {
    ::close(waited.pidfd);
  }
  waited.pid = report->pid;
  waited.start = report->start;
  waited.pidfd = open_pidfd(waited.pid);
  return {};
}

// In floating-point nanoseconds, so that no timeout overflows.
using Deadline = std::chrono::time_point<std::chrono::steady_clock, std::chrono::duration<double, std::nano>>;

// One poll loop waits for the exit (pidfd), drains both pipes so the child never blocks on a
// full pipe, and watches `deadline` and our own interrupt signal. Sets the timeout, interrupt
// or error in `result`.
void wait_for_exit(Waited& waited, Streams& streams, int report_fd, Deadline deadline,
                   const std::string& stub, const std::string& program, RunResult& result) {
  while (!waited.exited) {
    std::array<pollfd, 4> fds{};
    fds[0] = {waited.pidfd, POLLIN, 0};
    fds[1] = {streams.out_open ? streams.out.read_end() : -1, POLLIN, 0};
    fds[2] = {streams.err_open ? streams.err.read_end() : -1, POLLIN, 0};
    fds[3] = {interrupt_fd(), POLLIN, 0};
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto wait_ms = static_cast<int>(std::max<std::int64_t>(remaining.count(), 0) + 1);
    if (waited.pidfd < 0) {
      wait_ms = std::min(wait_ms, 2);  // kernels before 5.3 have no pidfd: poll for the exit
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (interrupt_requested()) {
      result.status = RunStatus::interrupted;
      return;
    }
    if (ready < 0 && errno != EINTR) {
      result.error = fmt::format("poll failed: {}", std::strerror(errno));
      return;
    }
    streams.read(fds[1].revents, fds[2].revents, result);
    siginfo_t info{};
    if (fds[0].revents != 0 ||
        (waited.pidfd < 0 &&
         ::waitid(P_PID, static_cast<id_t>(waited.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid != 0)) {
      waited.end = std::chrono::steady_clock::now();
      if (!waited.stub_running) {
        waited.exited = true;
      } else if (auto error = take_over_from_stub(waited, report_fd, stub, program); !error.empty()) {
        result.error = std::move(error);
        return;
      }
    } else if (std::chrono::steady_clock::now() >= deadline) {
      result.status = RunStatus::timed_out;
      return;
    }
  }
}

// After the group is killed: reads what is left in the pipes, unless a process outside the
// group still holds one open.
void drain_remaining(Streams& streams, RunResult& result) {
  while (streams.open()) {
    std::array<pollfd, 2> fds{{{streams.out_open ? streams.out.read_end() : -1, POLLIN, 0},
                               {streams.err_open ? streams.err.read_end() : -1, POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), 1000) <= 0) {
      break;
    }
    streams.read(fds[0].revents, fds[1].revents, result);
  }
}

// Reaps the waited-for process with wait4, which Boost.Process's own wait cannot do, for its
// `status` and `usage`. Stopped before the stub reported (timeout, interrupt): also whatever of
// the stub's group became ours.
void reap(const Waited& waited, int& status, rusage& usage) {
  if (waited.stub_running) {
    while (::wait4(waited.pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    while (::waitpid(-waited.group, nullptr, 0) > 0 || errno == EINTR) {
    }
  } else if (waited.pid > 0) {
    while (::wait4(waited.pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
  }
}

// The children of this process (every thread's), from /proc/self/task/*/children; empty
// where the kernel lacks that file.
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream file(task.path() / "children");
    pid_t pid = 0;
    while (file >> pid) {
      children.push_back(pid);
    }
  }
  return children;
}

// Whether `pid` is still running (not a zombie waiting to be reaped).
bool is_running(pid_t pid) {
  std::ifstream file(fmt::format("/proc/{}/stat", pid));
  std::string line;
  std::getline(file, line);
  // "PID (COMMAND) STATE ...": the command may contain spaces and parentheses.
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

// How many processes the run left running when it ended: at that moment every child we have
// besides the run itself was re-parented to us (the subreaper) by a process of the run that
// exited before its own children did.
int count_left_behind(pid_t run) {
  int running = 0;
  for (const pid_t pid : own_children()) {
    running += pid != run && is_running(pid) ? 1 : 0;
  }
  return running;
}

// After the run is reaped, every child we still have is one it left behind (killed with its
// process group, or outside it after setsid). Kills and reaps them, and theirs, which
// become ours as each one dies.
void kill_left_behind() {
  constexpr int k_max_sweeps = 64;  // a fork bomb is not waited out
  for (int sweep = 0; sweep < k_max_sweeps; ++sweep) {
    const auto children = own_children();
    if (children.empty()) {
      break;
    }
    for (const pid_t pid : children) {
      ::kill(pid, SIGKILL);
    }
    for (const pid_t pid : children) {
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

// Times, max RSS and how the run ended, from the reaped `status` and `usage`.
void record_exit(const Waited& waited, int status, const rusage& usage, RunResult& result) {
  result.user_seconds = seconds(usage.ru_utime);
  result.system_seconds = seconds(usage.ru_stime);
  result.max_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports KiB
  if (!waited.exited) {
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - waited.start).count();
    return;
  }
  result.wall_seconds = std::chrono::duration<double>(waited.end - waited.start).count();
  if (WIFEXITED(status)) {
    result.status = RunStatus::exited;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.status = RunStatus::signaled;
    result.signal = WTERMSIG(status);
  }
}

}  // namespace

RunResult ProcessExecutor::run(const CommandSpec& command, const RunLimits& limits) {
  RunResult result;
  auto program = program_and_arguments(command, m_resolved);
  if (!program) {
    result.error = program.error();
    return result;
  }
  auto& [program_text, arguments] = program.value();
  bp::filesystem::path executable = program_text;

  const bool via_stub = !m_exec_stub.empty();
  Streams streams;
  Pipe report(via_stub);  // perfduel-exec's report; no pipe when runs start directly
  if (!streams.out.ok() || !streams.err.ok() || (via_stub && !report.ok())) {
    result.error = fmt::format("cannot create pipes: {}", std::strerror(errno));
    return result;
  }
  if (via_stub) {
    ::fcntl(report.write_end(), F_SETFD, 0);  // inherited by the stub, which marks it close-on-exec again
    arguments.insert(arguments.begin(), {std::to_string(report.write_end()), program_text});
    executable = m_exec_stub.string();
  }

  RunCounters counters(limits.counters);
  if (!counters.setup_error().empty()) {
    result.error = counters.setup_error();
    return result;
  }
  boost::asio::io_context context;
  Waited waited;
  std::optional<bp::process> child;
  try {
    child.emplace(launch_child(context, command, limits, counters, executable, arguments, streams,
                               via_stub ? report.write_end() : -1, waited.start));
  } catch (const std::exception& e) {
    result.error = e.what();
    return result;
  }
  streams.out.close_write();
  streams.err.close_write();
  report.close_write();
  result.error = counters.receive();
  if (!result.error.empty()) {
    ::kill(-child->id(), SIGKILL);  // a run that cannot be counted is not worth waiting for
  }
  waited.group = child->id();
  waited.pid = waited.group;
  waited.stub_running = via_stub;
  waited.pidfd = open_pidfd(waited.pid);

  const Deadline deadline = waited.start + std::chrono::duration<double>(limits.timeout_seconds);
  wait_for_exit(waited, streams, report.read_end(), deadline, m_exec_stub.string(), program_text, result);
  if (waited.exited) {
    result.left_behind = count_left_behind(waited.pid);
  }
  // The leader is a zombie now (or still running on timeout/interrupt), so its process
  // group id cannot have been reused: kill whatever is left of the group.
  ::kill(-waited.group, SIGKILL);
  int status = 0;
  rusage usage{};
  reap(waited, status, usage);
  child->detach();
  // Before the last of the pipes is read: a process left behind may hold them open.
  kill_left_behind();
  drain_remaining(streams, result);
  if (waited.pidfd >= 0) {
    ::close(waited.pidfd);
  }
  if (result.error.empty() && waited.exited) {
    result.error = counters.read(result.counters);
  }
  if (result.error.empty()) {
    record_exit(waited, status, usage, result);
  }
  return result;
}

}  // namespace perfduel
