#include "run/process_executor.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <sstream>

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
#include "run/process_tree.hpp"
#include "run/run_environment.hpp"
#include "run/signals.hpp"
#include "run/streams.hpp"
#include "run/stub_report.hpp"
#include "util/file.hpp"
#include "util/pipe.hpp"

namespace perfduel {

namespace bp = boost::process::v2;

namespace {

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

double seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
}

}  // namespace

ProcessExecutor::ProcessExecutor() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

ProcessExecutor::ProcessExecutor(std::filesystem::path exec_stub) : m_exec_stub(std::move(exec_stub)) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

namespace {

// The program to start and its arguments: /bin/sh -c for a shell command, else the program
// resolved through `programs`.
util::Expected<std::pair<std::string, std::vector<std::string>>> program_and_arguments(
    const CommandSpec& command, ProgramPaths& programs) {
  using Result = util::Expected<std::pair<std::string, std::vector<std::string>>>;
  if (command.launch == Launch::shell) {
    return std::pair<std::string, std::vector<std::string>>{"/bin/sh", {"-c", command.argv.front()}};
  }
  auto resolved = programs.resolve(command.argv.front(), command.working_directory);
  if (!resolved) {
    return Result::failure(resolved.error());
  }
  return std::pair<std::string, std::vector<std::string>>{
      resolved->string(), std::vector<std::string>(command.argv.begin() + 1, command.argv.end())};
}

// Starts `executable` with `arguments` in `command`'s directory and environment, stdout and
// stderr into `streams`, pinned to `limits.cpus`, counted by `counters`; the `inherited`
// descriptors stay open for the stub. Sets `start` just before the spawn. Throws what Boost.Process throws.
bp::process launch_child(boost::asio::io_context& context, const CommandSpec& command,
                         const RunLimits& limits, const RunCounters& counters,
                         const bp::filesystem::path& executable, const std::vector<std::string>& arguments,
                         Streams& streams, const std::vector<int>& inherited,
                         std::chrono::steady_clock::time_point& start) {
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
  launch.fd_whitelist.insert(launch.fd_whitelist.end(), inherited.begin(), inherited.end());
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

// One run from its launch to its result: its pipes, counters, the process waited for and
// what it produced so far.
struct StartedRun {
  explicit StartedRun(const RunLimits& limits, bool via_stub) : report(via_stub), counters(limits.counters) {}

  RunResult result;
  std::string program;  // as the user named it, for messages
  Streams streams;
  util::Pipe report;  // perfduel-exec's report; no pipe when runs start directly
  RunCounters counters;
  boost::asio::io_context context;
  std::optional<bp::process> child;
  Waited waited;
  Deadline deadline;
  bool waiting = false;  // started, and neither ended nor given up on yet
};

// What one poll of wait_for_exit (`ready`, `poll_errno` as poll returned) found for `run`, whose
// pidfd, stdout and stderr are `fds`: its end, its output, its deadline passed, an interrupt.
void take_poll(StartedRun& run, std::span<const pollfd> fds, int ready, int poll_errno,
               const std::string& stub) {
  Waited& waited = run.waited;
  if (interrupt_requested()) {
    run.result.status = RunStatus::interrupted;
    run.waiting = false;
    return;
  }
  if (ready < 0 && poll_errno != EINTR) {
    run.result.error = fmt::format("poll failed: {}", std::strerror(poll_errno));
    run.waiting = false;
    return;
  }
  run.streams.read(fds[1].revents, fds[2].revents, run.result);
  siginfo_t info{};
  if (fds[0].revents != 0 ||
      (waited.pidfd < 0 &&
       ::waitid(P_PID, static_cast<id_t>(waited.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
       info.si_pid != 0)) {
    waited.end = std::chrono::steady_clock::now();
    if (!waited.stub_running) {
      waited.exited = true;
      run.waiting = false;
    } else if (auto error = take_over_from_stub(waited, run.report.read_end(), stub, run.program);
               !error.empty()) {
      run.result.error = std::move(error);
      run.waiting = false;
    }
  } else if (std::chrono::steady_clock::now() >= run.deadline) {
    run.result.status = RunStatus::timed_out;
    run.waiting = false;
    ::kill(-waited.group, SIGKILL);
  }
}

// One poll loop waits for the exits (pidfds), drains the pipes so no child blocks on a full
// pipe, and watches each run's deadline and our own interrupt signal. Sets a timeout,
// interrupt or error in the run's result; a run past its deadline has its group killed at
// once, so that the other one of a pair runs on undisturbed.
void wait_for_exit(std::span<StartedRun* const> runs, const std::string& stub) {
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<StartedRun*> polled;
    Deadline deadline = Deadline::max();
    bool fallback = false;  // a run without pidfd (kernels before 5.3): poll for its exit
    for (StartedRun* run : runs) {
      if (!run->waiting) {
        continue;
      }
      polled.push_back(run);
      fds.push_back({run->waited.pidfd, POLLIN, 0});
      fds.push_back({run->streams.out_open ? run->streams.out.read_end() : -1, POLLIN, 0});
      fds.push_back({run->streams.err_open ? run->streams.err.read_end() : -1, POLLIN, 0});
      deadline = std::min(deadline, run->deadline);
      fallback = fallback || run->waited.pidfd < 0;
    }
    if (polled.empty()) {
      return;
    }
    fds.push_back({interrupt_fd(), POLLIN, 0});
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto wait_ms = static_cast<int>(std::max<std::int64_t>(remaining.count(), 0) + 1);
    if (fallback) {
      wait_ms = std::min(wait_ms, 2);
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    const int poll_errno = errno;
    for (std::size_t i = 0; i < polled.size(); ++i) {
      take_poll(*polled[i], std::span(fds).subspan(3 * i, 3), ready, poll_errno, stub);
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

// How many processes the runs left running when they ended, into each run's result: at that
// moment every child we have besides the runs themselves was re-parented to us (the
// subreaper) by a process of a run that exited before its own children did. A process is
// counted on the run whose process group it is in; one that left its group (setsid) cannot be
// told apart and is counted on the first run.
void count_left_behind(std::span<StartedRun* const> runs) {
  for (const pid_t pid : own_children()) {
    const bool is_run =
        std::any_of(runs.begin(), runs.end(), [&](const StartedRun* run) { return run->waited.pid == pid; });
    if (is_run || !is_running(pid)) {
      continue;
    }
    const pid_t group = process_group(pid);
    StartedRun* owner = runs.front();
    for (StartedRun* run : runs) {
      owner = run->waited.group == group ? run : owner;
    }
    ++owner->result.left_behind;
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

// Prepares and launches `run` of `command` within `limits`: the program resolved through
// `programs`, started through `stub` (empty: directly), whose start waits for `barrier_fd`'s
// end of file when it is not -1. False, with the cause in the result, when it did not start.
bool start_run(StartedRun& run, const CommandSpec& command, const RunLimits& limits, ProgramPaths& programs,
               const std::filesystem::path& stub, int barrier_fd) {
  auto program = program_and_arguments(command, programs);
  if (!program) {
    run.result.error = program.error();
    return false;
  }
  auto& [program_text, arguments] = program.value();
  run.program = program_text;
  bp::filesystem::path executable = program_text;
  const bool via_stub = !stub.empty();
  if (!run.streams.out.ok() || !run.streams.err.ok() || (via_stub && !run.report.ok())) {
    run.result.error = fmt::format("cannot create pipes: {}", std::strerror(errno));
    return false;
  }
  std::vector<int> inherited;
  if (via_stub) {
    ::fcntl(run.report.write_end(), F_SETFD, 0);  // inherited by the stub, which marks it close-on-exec again
    arguments.insert(arguments.begin(), {std::to_string(run.report.write_end()), program_text});
    inherited.push_back(run.report.write_end());
    if (barrier_fd >= 0) {
      arguments.insert(arguments.begin(), {"--barrier", std::to_string(barrier_fd)});
      inherited.push_back(barrier_fd);
    }
    executable = stub.string();
  }
  if (!run.counters.setup_error().empty()) {
    run.result.error = run.counters.setup_error();
    return false;
  }
  try {
    run.child.emplace(launch_child(run.context, command, limits, run.counters, executable, arguments,
                                   run.streams, inherited, run.waited.start));
  } catch (const std::exception& e) {
    run.result.error = e.what();
    return false;
  }
  run.streams.out.close_write();
  run.streams.err.close_write();
  run.report.close_write();
  run.result.error = run.counters.receive();
  if (!run.result.error.empty()) {
    ::kill(-run.child->id(), SIGKILL);  // a run that cannot be counted is not worth waiting for
  }
  run.waited.group = run.child->id();
  run.waited.pid = run.waited.group;
  run.waited.stub_running = via_stub;
  run.waited.pidfd = open_pidfd(run.waited.pid);
  run.deadline = run.waited.start + std::chrono::duration<double>(limits.timeout_seconds);
  run.waiting = true;
  return true;
}

// Waits for every started run of `runs`, then kills what they left, reaps them and reads
// their counts into their results.
void finish_runs(std::span<StartedRun* const> runs, const std::string& stub) {
  wait_for_exit(runs, stub);
  std::vector<StartedRun*> started;
  for (StartedRun* run : runs) {
    if (run->child) {
      started.push_back(run);
    }
  }
  if (started.empty()) {
    return;
  }
  if (std::all_of(started.begin(), started.end(), [](const StartedRun* run) { return run->waited.exited; })) {
    count_left_behind(started);
  }
  for (StartedRun* run : started) {
    // The leader is a zombie now (or still running on timeout/interrupt), so its process
    // group id cannot have been reused: kill whatever is left of the group.
    ::kill(-run->waited.group, SIGKILL);
  }
  std::vector<std::pair<int, rusage>> reaped(started.size());
  for (std::size_t i = 0; i < started.size(); ++i) {
    reap(started[i]->waited, reaped[i].first, reaped[i].second);
    started[i]->child->detach();
  }
  // Before the last of the pipes is read: a process left behind may hold them open.
  kill_left_behind();
  for (std::size_t i = 0; i < started.size(); ++i) {
    StartedRun& run = *started[i];
    drain_remaining(run.streams, run.result);
    if (run.waited.pidfd >= 0) {
      ::close(run.waited.pidfd);
    }
    if (run.result.error.empty() && run.waited.exited) {
      run.result.error = run.counters.read(run.result.counters);
    }
    if (run.result.error.empty()) {
      record_exit(run.waited, reaped[i].first, reaped[i].second, run.result);
    }
  }
}

}  // namespace

RunResult ProcessExecutor::run(const CommandSpec& command, const RunLimits& limits) {
  StartedRun run(limits, !m_exec_stub.empty());
  if (!start_run(run, command, limits, m_programs, m_exec_stub, -1)) {
    return std::move(run.result);
  }
  const std::array<StartedRun*, 1> runs{&run};
  finish_runs(runs, m_exec_stub.string());
  return std::move(run.result);
}

std::array<RunResult, 2> ProcessExecutor::run_together(const std::array<const CommandSpec*, 2>& commands,
                                                       const std::array<RunLimits, 2>& limits) {
  const bool via_stub = !m_exec_stub.empty();
  StartedRun first(limits[0], via_stub);
  StartedRun second(limits[1], via_stub);
  const std::array<StartedRun*, 2> runs{&first, &second};
  util::Pipe barrier(via_stub);
  if (via_stub) {
    if (!barrier.ok()) {
      first.result.error = fmt::format("cannot create pipes: {}", std::strerror(errno));
      return {std::move(first.result), std::move(second.result)};
    }
    ::fcntl(barrier.read_end(), F_SETFD, 0);  // the stubs inherit it; the write end stays ours alone
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    start_run(*runs[i], *commands[i], limits[i], m_programs, m_exec_stub, barrier.read_end());
  }
  // Both started (or one could not be): closing the only write end releases the stubs at once.
  barrier.close_read();
  barrier.close_write();
  finish_runs(runs, m_exec_stub.string());
  return {std::move(first.result), std::move(second.result)};
}

}  // namespace perfduel
