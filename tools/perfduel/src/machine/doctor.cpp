#include "machine/doctor.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr const char* k_cpu_dir = "/sys/devices/system/cpu";

// The symbolic names of the errno values the probes meet, so that findings are stable and
// searchable; anything else falls back to strerror.
constexpr util::NameTable<int, 8> k_errno_names{{{EPERM, "EPERM"},
                                                 {EACCES, "EACCES"},
                                                 {EINVAL, "EINVAL"},
                                                 {ENOENT, "ENOENT"},
                                                 {ENODEV, "ENODEV"},
                                                 {EOPNOTSUPP, "EOPNOTSUPP"},
                                                 {ENOSYS, "ENOSYS"},
                                                 {ESRCH, "ESRCH"}}};

std::string errno_name(int error) {
  const std::string_view name = util::name_of(k_errno_names, error);
  return name.empty() ? std::strerror(error) : std::string(name);
}

// `result` ending its check with `status` and `finding` (any fix set before is kept).
Finding concluded(Finding result, CheckStatus status, std::string finding) {
  result.status = status;
  result.finding = std::move(finding);
  return result;
}

std::string first_word(std::string_view text) {
  text = util::trim(text);
  return std::string(text.substr(0, text.find_first_of(" \t\n")));
}

// The CPUs of a brace expansion for a sysfs path: "cpu3" or "cpu{0,1,4}".
std::string cpu_glob(const std::vector<int>& cpus) {
  if (cpus.size() == 1) {
    return fmt::format("cpu{}", cpus.front());
  }
  return fmt::format("cpu{{{}}}", fmt::join(cpus, ","));
}

// The number that the line `key` ("SwapTotal", "pswpin") of a /proc/meminfo or /proc/vmstat
// text starts with.
std::optional<double> field_value(const std::string& text, std::string_view key) {
  const auto value = proc_field(text, key);
  if (!value) {
    return std::nullopt;
  }
  const auto number = util::parse_double(first_word(*value));
  return number ? std::optional<double>(*number) : std::nullopt;
}

}  // namespace

std::string_view to_string(CheckStatus status) {
  return util::name_of(k_check_status_names, status);
}

CheckStatus worst_status(const std::vector<Finding>& findings) {
  auto worst = CheckStatus::ok;
  for (const auto& finding : findings) {
    worst = std::max(worst, finding.status);
  }
  return worst;
}

Finding check_governor(const std::vector<CpuFile>& governors) {
  Finding result{"governor", CheckStatus::ok, "", ""};
  std::map<std::string, std::vector<int>> by_governor;
  for (const auto& file : governors) {
    if (file.content) {
      by_governor[std::string(util::trim(*file.content))].push_back(file.cpu);
    }
  }
  if (by_governor.empty()) {
    return concluded(
        result, CheckStatus::info,
        "no cpufreq interface: the clock is managed by the hypervisor or firmware (virtual machine?)");
  }
  std::vector<std::string> others;
  std::vector<int> to_fix;
  for (const auto& [governor, cpus] : by_governor) {
    if (governor != "performance") {
      others.push_back(fmt::format("\"{}\" on CPU {}", governor, format_cpu_list(cpus)));
      to_fix.insert(to_fix.end(), cpus.begin(), cpus.end());
    }
  }
  if (others.empty()) {
    result.finding =
        fmt::format("governor \"performance\" on CPU {}", format_cpu_list(by_governor.begin()->second));
    return result;
  }
  std::sort(to_fix.begin(), to_fix.end());
  result.status = CheckStatus::warn;
  result.finding = fmt::format("governor {} (want \"performance\": others change the clock during a run)",
                               fmt::join(others, ", "));
  result.fix =
      fmt::format("echo performance | sudo tee {}/{}/cpufreq/scaling_governor", k_cpu_dir, cpu_glob(to_fix));
  return result;
}

Finding check_turbo(const std::optional<std::string>& intel_no_turbo,
                    const std::optional<std::string>& cpufreq_boost) {
  Finding result{"turbo", CheckStatus::ok, "", ""};
  const auto judge = [&](const std::string& file, std::string_view value, std::string_view off,
                         std::string_view on, const std::string& fix) {
    value = util::trim(value);
    if (value == off) {
      result.finding = fmt::format("turbo boost is off ({} = {})", file, value);
    } else if (value == on) {
      result.status = CheckStatus::warn;
      result.finding =
          fmt::format("turbo boost is on ({} = {}): the clock follows temperature and the other cores' load",
                      file, value);
      result.fix = fix;
    } else {
      result.status = CheckStatus::info;
      result.finding = fmt::format("{} reads \"{}\", expected {} or {}", file, value, off, on);
    }
  };
  if (intel_no_turbo) {
    judge("intel_pstate/no_turbo", *intel_no_turbo, "1", "0",
          fmt::format("echo 1 | sudo tee {}/intel_pstate/no_turbo", k_cpu_dir));
  } else if (cpufreq_boost) {
    judge("cpufreq/boost", *cpufreq_boost, "0", "1",
          fmt::format("echo 0 | sudo tee {}/cpufreq/boost", k_cpu_dir));
  } else {
    result.status = CheckStatus::info;
    result.finding =
        "no turbo control (intel_pstate/no_turbo, cpufreq/boost): virtual machine or fixed clock";
  }
  return result;
}

Finding check_load(const std::optional<std::string>& loadavg, int cpu_count) {
  Finding result{"load", CheckStatus::ok, "", ""};
  const auto loads = loadavg ? parse_load_averages(*loadavg)
                             : util::Expected<std::vector<double>>::failure("cannot read /proc/loadavg");
  if (!loads || cpu_count <= 0) {
    return concluded(
        result, CheckStatus::info,
        loads ? "the number of CPUs is unknown" : fmt::format("load unknown: {}", loads.error()));
  }
  const double load = loads->front();  // the last minute's
  const double per_cpu = load / cpu_count;
  result.finding =
      fmt::format("load average {:.2f} (1 min) on {} CPUs, {:.2f} per CPU", load, cpu_count, per_cpu);
  if (per_cpu >= k_load_fail_per_cpu) {
    result.status = CheckStatus::fail;
    result.finding += ": more runnable tasks than CPUs, runs will wait for a CPU";
  } else if (per_cpu >= k_load_warn_per_cpu) {
    result.status = CheckStatus::warn;
    result.finding += ": other work will disturb the runs";
  } else {
    return result;
  }
  result.fix = fmt::format(
      "stop other work (top -o %CPU) and wait until the first number of /proc/loadavg is below {:.2f}",
      k_load_warn_per_cpu * cpu_count);
  return result;
}

Finding check_affinity(const std::vector<AffinityProbe>& probes, CpuSelection selection) {
  Finding result{"affinity", CheckStatus::ok, "", ""};
  std::vector<int> pinnable;
  std::map<int, std::vector<int>> failed;  // errno -> CPUs
  for (const auto& probe : probes) {
    if (probe.error == 0) {
      pinnable.push_back(probe.cpu);
    } else {
      failed[probe.error].push_back(probe.cpu);
    }
  }
  if (probes.empty()) {
    return concluded(result, CheckStatus::info, "no CPU to check");
  }
  if (failed.empty()) {
    result.finding = fmt::format("can pin to CPU {}", format_cpu_list(pinnable));
    return result;
  }
  std::vector<std::string> causes;
  causes.reserve(failed.size());
  for (const auto& [error, cpus] : failed) {
    causes.push_back(fmt::format("CPU {} ({}{})", format_cpu_list(cpus), errno_name(error),
                                 error == EINVAL ? ": outside this process's cpuset or offline" : ""));
  }
  result.status =
      selection == CpuSelection::requested || pinnable.empty() ? CheckStatus::fail : CheckStatus::warn;
  result.finding = fmt::format("cannot pin to {}", fmt::join(causes, ", "));
  if (pinnable.empty()) {
    result.fix =
        "run where this process may set its CPU affinity (check: taskset -pc $$; Docker: --cpuset-cpus)";
  } else {
    result.finding += fmt::format("; can pin to CPU {}", format_cpu_list(pinnable));
    result.fix = fmt::format("pin to CPUs that work: perfduel compare --cpus {}", format_cpu_list(pinnable));
  }
  return result;
}

Finding check_realtime(int error) {
  Finding result{"realtime", CheckStatus::ok, "", ""};
  if (error == 0) {
    result.finding = "SCHED_FIFO is permitted: runs can get real-time priority";
    return result;
  }
  result.status = CheckStatus::warn;
  result.finding =
      fmt::format("SCHED_FIFO is not permitted ({}): runs compete with other tasks at normal priority",
                  errno_name(error));
  result.fix =
      "grant CAP_SYS_NICE (sudo setcap cap_sys_nice+ep \"$(command -v perfduel)\"; Docker: "
      "--cap-add=SYS_NICE) or "
      "raise RLIMIT_RTPRIO (ulimit -r 1)";
  return result;
}

Finding check_perf_counters(const std::optional<std::string>& paranoid, const PerfProbe& probe) {
  Finding result{"perf", CheckStatus::ok, "", ""};
  const std::string level = paranoid ? std::string(util::trim(*paranoid)) : std::string("unknown");
  if (probe.error == 0) {
    if (probe.count == 0) {
      result.status = CheckStatus::warn;
      result.finding =
          fmt::format("the instructions counter opens but counts nothing (perf_event_paranoid = {})", level);
      result.fix = "expose the hardware PMU to this machine (virtual machines: vPMU, e.g. QEMU -cpu host)";
    } else {
      result.finding = fmt::format("the instructions counter works (perf_event_paranoid = {})", level);
    }
    return result;
  }
  switch (probe.error) {
    case EACCES:
    case EPERM: {
      result.status = CheckStatus::warn;
      const auto value = util::parse_double(level);
      if (value && *value > 2) {
        result.finding =
            fmt::format("perf counters are closed to unprivileged users (perf_event_paranoid = {}, {})",
                        level, errno_name(probe.error));
        result.fix = "sudo sysctl kernel.perf_event_paranoid=2";
      } else {
        result.finding = fmt::format(
            "perf_event_open is refused ({}) although perf_event_paranoid = {}: a seccomp filter "
            "or a missing CAP_PERFMON",
            errno_name(probe.error), level);
        result.fix = "Docker: --cap-add=PERFMON (or --security-opt seccomp=unconfined)";
      }
      return result;
    }
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      result.status = CheckStatus::info;
      result.finding =
          fmt::format("no hardware instructions counter ({}): virtual machine without a virtual PMU?",
                      errno_name(probe.error));
      result.fix = "expose the hardware PMU to this machine (virtual machines: vPMU, e.g. QEMU -cpu host)";
      return result;
    case ENOSYS:
      return concluded(result, CheckStatus::info, "the kernel has no perf events (ENOSYS)");
    default:
      return concluded(result, CheckStatus::warn,
                       fmt::format("perf_event_open failed ({}, perf_event_paranoid = {})",
                                   errno_name(probe.error), level));
  }
}

// ASLR on is what we want. A fixed layout makes one binary consistently lucky or unlucky
// with cache and branch-predictor aliasing, a bias that no number of rounds reveals
// (Mytkowicz et al., "Producing wrong data without doing anything obviously wrong!",
// ASPLOS 2009); a fresh layout per run turns it into variance that the paired CI
// accounts for. pyperf's `system tune` enables full randomisation for the same reason.
Finding check_aslr(const std::optional<std::string>& randomize_va_space) {
  Finding result{"aslr", CheckStatus::ok, "", ""};
  if (!randomize_va_space) {
    return concluded(result, CheckStatus::info, "cannot read /proc/sys/kernel/randomize_va_space");
  }
  const auto value = util::trim(*randomize_va_space);
  const auto fix = "echo 2 | sudo tee /proc/sys/kernel/randomize_va_space";
  if (value == "2") {
    result.finding = "ASLR is fully on (randomize_va_space = 2): layout luck averages out over the rounds";
  } else if (value == "1") {
    result.status = CheckStatus::warn;
    result.finding = "ASLR is partial (randomize_va_space = 1): the heap start is the same in every run";
    result.fix = fix;
  } else if (value == "0") {
    result.status = CheckStatus::warn;
    result.finding =
        "ASLR is off (randomize_va_space = 0): a layout accident becomes a bias no number of rounds shows";
    result.fix = fix;
  } else {
    result.status = CheckStatus::info;
    result.finding = fmt::format("randomize_va_space reads \"{}\", expected 0, 1 or 2", value);
  }
  return result;
}

Finding check_isolation(const std::optional<std::string>& isolated, const std::vector<int>& cpus,
                        CpuSelection selection) {
  Finding result{"isolation", CheckStatus::ok, "", ""};
  if (!isolated) {
    return concluded(result, CheckStatus::info, "the kernel does not report isolated CPUs");
  }
  const auto text = util::trim(*isolated);
  std::vector<int> isolated_cpus;
  if (!text.empty()) {
    auto parsed = util::parse_cpu_list(text);
    if (!parsed) {
      return concluded(result, CheckStatus::info,
                       fmt::format("cannot read the isolated CPUs: {}", parsed.error()));
    }
    isolated_cpus = std::move(parsed).value();
  }
  const auto is_isolated = [&](int cpu) {
    return std::find(isolated_cpus.begin(), isolated_cpus.end(), cpu) != isolated_cpus.end();
  };
  std::vector<int> not_isolated;
  std::copy_if(cpus.begin(), cpus.end(), std::back_inserter(not_isolated),
               [&](int cpu) { return !is_isolated(cpu); });
  if (isolated_cpus.empty()) {
    result.status = CheckStatus::info;
    result.finding =
        fmt::format("no CPU is isolated: the scheduler may put other tasks on CPU {}", format_cpu_list(cpus));
    const int suggestion = cpus.empty() ? 1 : std::max(1, *std::max_element(cpus.begin(), cpus.end()));
    result.fix = fmt::format(
        "boot with isolcpus={0} nohz_full={0} and pin the duel there: perfduel compare --cpus {0}",
        suggestion);
    return result;
  }
  const auto isolated_text = format_cpu_list(isolated_cpus);
  if (not_isolated.empty()) {
    result.finding = fmt::format("CPU {} isolated from the scheduler (isolated: {})", format_cpu_list(cpus),
                                 isolated_text);
    return result;
  }
  if (selection == CpuSelection::all_online) {
    result.status = CheckStatus::info;
    result.finding = fmt::format("CPU {} isolated, but an unpinned duel does not use them", isolated_text);
    result.fix = fmt::format("pin the duel to them: perfduel compare --cpus {}", isolated_text);
    return result;
  }
  result.status = CheckStatus::warn;
  result.finding =
      fmt::format("CPU {} not isolated (isolated: {})", format_cpu_list(not_isolated), isolated_text);
  result.fix = fmt::format("pin the duel to isolated CPUs: perfduel compare --cpus {}", isolated_text);
  return result;
}

Finding check_smt(const std::vector<CpuFile>& thread_siblings) {
  Finding result{"smt", CheckStatus::ok, "", ""};
  std::vector<int> checked;
  std::vector<int> shared;         // CPUs under test that share a core
  std::set<int> siblings_outside;  // their siblings that are not under test
  std::optional<std::pair<int, std::vector<int>>> example;
  for (const auto& file : thread_siblings) {
    if (file.content) {
      checked.push_back(file.cpu);
    }
  }
  for (const auto& file : thread_siblings) {
    if (!file.content) {
      continue;
    }
    const auto parsed = util::parse_cpu_list(util::trim(*file.content));
    if (!parsed) {
      continue;
    }
    std::vector<int> siblings;
    std::copy_if(parsed->begin(), parsed->end(), std::back_inserter(siblings),
                 [&](int cpu) { return cpu != file.cpu; });
    if (siblings.empty()) {
      continue;
    }
    shared.push_back(file.cpu);
    for (const int sibling : siblings) {
      if (std::find(checked.begin(), checked.end(), sibling) == checked.end()) {
        siblings_outside.insert(sibling);
      }
    }
    if (!example) {
      example.emplace(file.cpu, siblings);
    }
  }
  if (checked.empty()) {
    return concluded(result, CheckStatus::info, "the kernel does not report SMT siblings");
  }
  if (shared.empty()) {
    result.finding =
        checked.size() == 1
            ? fmt::format("no SMT sibling: CPU {} has a core of its own", checked.front())
            : fmt::format("no SMT sibling: CPU {} each have a core of their own", format_cpu_list(checked));
    return result;
  }
  result.status = CheckStatus::warn;
  result.finding =
      fmt::format("SMT is on: {} of {} CPUs share a core (CPU {} with {}); a busy sibling slows the run",
                  shared.size(), checked.size(), example->first, format_cpu_list(example->second));
  result.fix = fmt::format("echo off | sudo tee {}/smt/control", k_cpu_dir);
  if (!siblings_outside.empty()) {
    result.fix +=
        fmt::format(", or keep CPU {} idle (isolate them too)",
                    format_cpu_list(std::vector<int>(siblings_outside.begin(), siblings_outside.end())));
  }
  return result;
}

Finding check_swap(const std::optional<std::string>& meminfo, const std::optional<std::string>& vmstat_before,
                   const std::optional<std::string>& vmstat_after, double window_seconds) {
  Finding result{"swap", CheckStatus::ok, "", ""};
  const auto total = meminfo ? field_value(*meminfo, "SwapTotal") : std::nullopt;
  const auto swap_free = meminfo ? field_value(*meminfo, "SwapFree") : std::nullopt;
  if (!total || !swap_free) {
    return concluded(result, CheckStatus::info, "cannot read SwapTotal and SwapFree from /proc/meminfo");
  }
  if (*total == 0) {
    result.finding = "no swap configured";
    return result;
  }
  const auto delta = [&](std::string_view key) -> double {
    if (!vmstat_before || !vmstat_after) {
      return 0;
    }
    const auto before = field_value(*vmstat_before, key);
    const auto after = field_value(*vmstat_after, key);
    return before && after ? std::max(0.0, *after - *before) : 0.0;
  };
  const double pages_in = delta("pswpin");
  const double pages_out = delta("pswpout");
  const double used_bytes = (*total - *swap_free) * 1024.0;  // meminfo counts kB
  if (pages_in + pages_out > 0) {
    result.status = CheckStatus::warn;
    result.finding =
        fmt::format("the machine is swapping: {:.0f} pages in, {:.0f} out in {:.2f} s ({} of swap in use)",
                    pages_in, pages_out, window_seconds, util::format_bytes(used_bytes));
    result.fix = "free memory (stop other work), or sudo swapoff -a if the RAM suffices";
    return result;
  }
  result.finding = fmt::format("{} of swap in use, no swap traffic in {:.2f} s",
                               util::format_bytes(used_bytes), window_seconds);
  return result;
}

namespace {

// The files of `cpus` among `files`; a CPU without one reads as an absent file.
std::vector<CpuFile> files_of(const std::vector<CpuFile>& files, const std::vector<int>& cpus) {
  std::vector<CpuFile> chosen;
  chosen.reserve(cpus.size());
  for (const int cpu : cpus) {
    const auto file =
        std::find_if(files.begin(), files.end(), [&](const CpuFile& f) { return f.cpu == cpu; });
    chosen.push_back(file == files.end() ? CpuFile{cpu, std::nullopt} : *file);
  }
  return chosen;
}

}  // namespace

std::vector<Finding> diagnose(const MachineFacts& facts, const std::vector<int>& cpus,
                              CpuSelection selection) {
  // A requested CPU that does not exist is the affinity check's failure; the isolation
  // check should not suggest it.
  std::vector<int> existing;
  std::copy_if(cpus.begin(), cpus.end(), std::back_inserter(existing), [&](int cpu) {
    return facts.online_cpus.empty() ||
           std::find(facts.online_cpus.begin(), facts.online_cpus.end(), cpu) != facts.online_cpus.end();
  });
  std::vector<AffinityProbe> affinity;
  std::copy_if(facts.affinity.begin(), facts.affinity.end(), std::back_inserter(affinity),
               [&](const AffinityProbe& probe) {
                 return std::find(cpus.begin(), cpus.end(), probe.cpu) != cpus.end();
               });
  return {check_governor(files_of(facts.governors, cpus)),
          check_turbo(facts.intel_no_turbo, facts.cpufreq_boost),
          check_load(facts.loadavg, static_cast<int>(facts.online_cpus.size())),
          check_affinity(affinity, selection),
          check_realtime(facts.realtime_error),
          check_perf_counters(facts.perf_event_paranoid, facts.perf),
          check_aslr(facts.randomize_va_space),
          check_isolation(facts.isolated, existing, selection),
          check_smt(files_of(facts.thread_siblings, cpus)),
          check_swap(facts.meminfo, facts.vmstat_before, facts.vmstat_after, facts.swap_window_seconds)};
}

}  // namespace perfduel
