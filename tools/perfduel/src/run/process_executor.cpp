#include "run/process_executor.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
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

constexpr std::size_t k_max_stdout_bytes = 64U << 20U;  // metrics come from stdout; keep all of a sane amount
constexpr std::size_t k_max_stderr_bytes = 64U << 10U;  // only the tail is ever shown

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

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto name = text.substr(0, text.find('='));
    if (overrides.find(std::string(name)) == overrides.end()) {
      environment.emplace_back(text);
    }
  }
  for (const auto& [name, value] : overrides) {
    environment.push_back(fmt::format("{}={}", name, value));
  }
  return environment;
}

double seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
}

// Appends what is readable on `fd` to `buffer`, keeping at most `cap` bytes (the head for
// stdout, the tail for stderr). Returns false at end of file.
bool drain(int fd, std::string& buffer, std::size_t cap, bool keep_tail) {
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
    }
  } else if (buffer.size() < cap) {
    buffer.append(chunk.data(), std::min(size, cap - buffer.size()));
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

std::optional<StubReport> read_stub_report(int fd) {
  std::array<char, 128> buffer{};
  const auto count = ::read(fd, buffer.data(), buffer.size() - 1);
  if (count <= 0) {
    return std::nullopt;
  }
  long long pid = 0;
  long long start_ns = 0;
  int exec_errno = 0;
  if (std::sscanf(buffer.data(), "%lld %lld %d", &pid, &start_ns, &exec_errno) != 3) {
    return std::nullopt;
  }
  return StubReport{static_cast<pid_t>(pid),
                    std::chrono::steady_clock::time_point(std::chrono::nanoseconds(start_ns)), exec_errno};
}

}  // namespace

RunResult ProcessExecutor::run(const CommandSpec& command, const RunLimits& limits) {
  RunResult result;
  bp::filesystem::path executable;
  std::vector<std::string> arguments;
  if (command.launch == Launch::shell) {
    executable = "/bin/sh";
    arguments = {"-c", command.argv.front()};
  } else {
    // PATH lookup and file checks once per command, not once per run.
    const auto key = command.working_directory.string() + '\0' + command.argv.front();
    auto cached = m_resolved.find(key);
    if (cached == m_resolved.end()) {
      auto resolved = resolve_program(command.argv.front(), command.working_directory);
      if (!resolved) {
        result.error = resolved.error();
        return result;
      }
      cached = m_resolved.emplace(key, resolved.value().string()).first;
    }
    executable = cached->second;
    arguments.assign(command.argv.begin() + 1, command.argv.end());
  }

  const bool via_stub = !m_exec_stub.empty();
  Pipe out;
  Pipe err;
  Pipe report(via_stub);  // perfduel-exec's report; no pipe when runs start directly
  if (!out.ok() || !err.ok() || (via_stub && !report.ok())) {
    result.error = fmt::format("cannot create pipes: {}", std::strerror(errno));
    return result;
  }
  const std::string program_text = executable.string();
  if (via_stub) {
    ::fcntl(report.write_end(), F_SETFD, 0);  // inherited by the stub, which marks it close-on-exec again
    arguments.insert(arguments.begin(), {std::to_string(report.write_end()), executable.string()});
    executable = m_exec_stub.string();
  }
  const bp::filesystem::path directory =
      (command.working_directory.empty() ? std::filesystem::current_path() : command.working_directory)
          .string();
  cpu_set_t cpu_set;
  CPU_ZERO(&cpu_set);
  for (const int cpu : limits.cpus) {
    CPU_SET(cpu, &cpu_set);
  }
  RunCounters counters(limits.counters);
  if (!counters.setup_error().empty()) {
    result.error = counters.setup_error();
    return result;
  }
  const ChildSetup setup{limits.cpus.empty() ? nullptr : &cpu_set, &counters};

  boost::asio::io_context context;
  const auto launch_start = std::chrono::steady_clock::now();
  std::optional<bp::process> child;
  try {
    // vfork: the parent's address space is not copied, which is most of the cost of a
    // spawn for a short benchmark (measured in docs/overhead.md).
    bp::posix::vfork_launcher launch;
    if (via_stub) {
      launch.fd_whitelist.push_back(report.write_end());
    }
    if (command.environment.empty()) {
      child.emplace(launch(context, executable, arguments,
                           bp::process_stdio{nullptr, out.write_end(), err.write_end()},
                           bp::process_start_dir{directory}, setup));
    } else {
      child.emplace(launch(context, executable, arguments,
                           bp::process_stdio{nullptr, out.write_end(), err.write_end()},
                           bp::process_start_dir{directory},
                           bp::process_environment{merged_environment(command.environment)}, setup));
    }
  } catch (const std::exception& e) {
    result.error = e.what();
    return result;
  }
  out.close_write();
  err.close_write();
  report.close_write();
  result.error = counters.receive();
  if (!result.error.empty()) {
    ::kill(-child->id(), SIGKILL);  // a run that cannot be counted is not worth waiting for
  }
  // The process group (the child's own) and the process waited for: the child, or through
  // perfduel-exec first the stub and then the run it started.
  const pid_t group = child->id();
  pid_t pid = group;
  bool stub_running = via_stub;
  auto start = launch_start;
  // Boost 1.81's process::native_handle() does not compile, so open our own pidfd: it
  // becomes readable when the child exits and lets one poll() wait for exit, pipes and
  // timeout together.
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));

  // One poll loop waits for the exit (pidfd), drains both pipes so the child never blocks
  // on a full pipe, and watches the deadline and our own interrupt signal.
  const auto deadline = start + std::chrono::duration<double>(limits.timeout_seconds);
  bool out_open = true;
  bool err_open = true;
  bool exited = false;
  std::chrono::steady_clock::time_point end;
  while (!exited) {
    std::array<pollfd, 4> fds{};
    fds[0] = {pidfd, POLLIN, 0};
    fds[1] = {out_open ? out.read_end() : -1, POLLIN, 0};
    fds[2] = {err_open ? err.read_end() : -1, POLLIN, 0};
    fds[3] = {interrupt_fd(), POLLIN, 0};
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto wait_ms = static_cast<int>(std::max<std::int64_t>(remaining.count(), 0) + 1);
    if (pidfd < 0) {
      wait_ms = std::min(wait_ms, 2);  // kernels before 5.3 have no pidfd: poll for the exit
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (interrupt_requested()) {
      result.status = RunStatus::interrupted;
      break;
    }
    if (ready < 0 && errno != EINTR) {
      result.error = fmt::format("poll failed: {}", std::strerror(errno));
      break;
    }
    if (fds[1].revents != 0) {
      out_open = drain(out.read_end(), result.out, k_max_stdout_bytes, false);
    }
    if (fds[2].revents != 0) {
      err_open = drain(err.read_end(), result.err, k_max_stderr_bytes, true);
    }
    siginfo_t info{};
    if (fds[0].revents != 0 ||
        (pidfd < 0 && ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid != 0)) {
      end = std::chrono::steady_clock::now();
      if (!stub_running) {
        exited = true;
        continue;
      }
      // perfduel-exec started the run and exited: reap it, then wait for the run, which is
      // ours now (child subreaper), timed from the stub's clock reading before the start.
      stub_running = false;
      int stub_status = 0;
      while (::wait4(pid, &stub_status, 0, nullptr) < 0 && errno == EINTR) {
      }
      const auto stub = read_stub_report(report.read_end());
      if (!stub || stub->pid <= 0 || stub->exec_errno != 0) {
        result.error = !stub ? fmt::format("perfduel-exec ({}) did not report the start of {}",
                                           m_exec_stub.string(), program_text)
                             : fmt::format("cannot start {}: {}", program_text,
                                           std::strerror(stub->exec_errno != 0 ? stub->exec_errno : EAGAIN));
        if (stub && stub->pid > 0) {
          pid = stub->pid;  // reaped below
        } else {
          pid = -1;
        }
        break;
      }
      if (pidfd >= 0) {
        ::close(pidfd);
      }
      pid = stub->pid;
      start = stub->start;
      pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    } else if (std::chrono::steady_clock::now() >= deadline) {
      result.status = RunStatus::timed_out;
      break;
    }
  }

  // The leader is a zombie now (or still running on timeout/interrupt), so its process
  // group id cannot have been reused: kill whatever is left of the group.
  ::kill(-group, SIGKILL);
  while (out_open || err_open) {
    std::array<pollfd, 2> fds{
        {{out_open ? out.read_end() : -1, POLLIN, 0}, {err_open ? err.read_end() : -1, POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), 1000) <= 0) {
      break;  // a process outside the group still holds the pipe; stop waiting for it
    }
    if (fds[0].revents != 0) {
      out_open = drain(out.read_end(), result.out, k_max_stdout_bytes, false);
    }
    if (fds[1].revents != 0) {
      err_open = drain(err.read_end(), result.err, k_max_stderr_bytes, true);
    }
  }

  int status = 0;
  rusage usage{};
  if (stub_running) {
    // Stopped before the stub reported (timeout, interrupt): reap it and whatever of its
    // group became ours.
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    while (::waitpid(-group, nullptr, 0) > 0 || errno == EINTR) {
    }
  } else if (pid > 0) {
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
  }
  child->detach();
  if (pidfd >= 0) {
    ::close(pidfd);
  }  // reaped here with wait4, which Boost.Process's own wait cannot give us
  if (!result.error.empty()) {
    return result;
  }
  if (exited) {
    result.error = counters.read(result.counters);
    if (!result.error.empty()) {
      return result;
    }
  }

  result.user_seconds = seconds(usage.ru_utime);
  result.system_seconds = seconds(usage.ru_stime);
  result.max_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports KiB
  if (exited) {
    result.wall_seconds = std::chrono::duration<double>(end - start).count();
    if (WIFEXITED(status)) {
      result.status = RunStatus::exited;
      result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      result.status = RunStatus::signaled;
      result.signal = WTERMSIG(status);
    }
  } else {
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return result;
}

}  // namespace perfduel
