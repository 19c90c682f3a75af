#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "machine/facts.hpp"
#include "util/name_table.hpp"

namespace perfduel {

// How fit one aspect of the machine is for benchmarking. `info` is a fact worth knowing
// that nobody can change from here (no cpufreq in a virtual machine); only `fail` makes
// `perfduel doctor` exit 1.
enum class CheckStatus { ok, info, warn, fail };

// What one check found: `check` is a short stable name ("governor"), `finding` one line
// for a human, `fix` the command to type (empty when there is nothing to do).
struct Finding {
  std::string check;
  CheckStatus status = CheckStatus::ok;
  std::string finding;
  std::string fix;
};

// Whether the CPUs under test were named by the user (`--cpus`) or are simply all online
// CPUs; a CPU the user asked for that cannot be used is a failure, not a remark.
enum class CpuSelection { requested, all_online };

// Load average per CPU from which the load check warns, and from which it fails (more
// runnable tasks than CPUs: a benchmark run waits for a CPU).
constexpr double k_load_warn_per_cpu = 0.25;
constexpr double k_load_fail_per_cpu = 1.0;

// Each check reads only its arguments. Messages are pinned by the unit tests.

// cpufreq governors of the CPUs under test (`governors`); "performance" is wanted.
Finding check_governor(const std::vector<CpuFile>& governors);

// Turbo boost from `intel_no_turbo` (intel_pstate/no_turbo) or `cpufreq_boost` (cpufreq/boost).
Finding check_turbo(const std::optional<std::string>& intel_no_turbo,
                    const std::optional<std::string>& cpufreq_boost);

// System load from `loadavg` (/proc/loadavg text) against `cpu_count` online CPUs.
Finding check_load(const std::optional<std::string>& loadavg, int cpu_count);

// Whether each CPU under test accepted pinning (`probes`); `selection` says whether the
// user asked for them.
Finding check_affinity(const std::vector<AffinityProbe>& probes, CpuSelection selection);

// Whether SCHED_FIFO was permitted: `error` is the errno of the attempt, 0 on success.
Finding check_realtime(int error);

// Hardware counters from `paranoid` (perf_event_paranoid text) and a real attempt (`probe`).
Finding check_perf_counters(const std::optional<std::string>& paranoid, const PerfProbe& probe);

// Address-space layout randomisation from `randomize_va_space` text.
Finding check_aslr(const std::optional<std::string>& randomize_va_space);

// Whether the CPUs under test (`cpus`) are in the kernel's `isolated` list.
Finding check_isolation(const std::optional<std::string>& isolated, const std::vector<int>& cpus,
                        CpuSelection selection);

// Hyper-thread siblings of the CPUs under test from their `thread_siblings` lists.
Finding check_smt(const std::vector<CpuFile>& thread_siblings);

// Swap use from `meminfo` and swap traffic between two /proc/vmstat snapshots taken
// `window_seconds` apart.
Finding check_swap(const std::optional<std::string>& meminfo, const std::optional<std::string>& vmstat_before,
                   const std::optional<std::string>& vmstat_after, double window_seconds);

// All checks over `facts` for the CPUs under test (`cpus`, chosen as `selection` says), in a
// fixed order. The checks are pure: `facts` come from read_machine_facts(..., Probing::full).
std::vector<Finding> diagnose(const MachineFacts& facts, const std::vector<int>& cpus,
                              CpuSelection selection);

// The worst status among `findings` (ok when empty).
CheckStatus worst_status(const std::vector<Finding>& findings);

constexpr util::NameTable<CheckStatus, 4> k_check_status_names{{{CheckStatus::ok, "ok"},
                                                                {CheckStatus::info, "info"},
                                                                {CheckStatus::warn, "warn"},
                                                                {CheckStatus::fail, "fail"}}};

// "ok", "info", "warn" or "fail" (k_check_status_names).
std::string_view to_string(CheckStatus status);

}  // namespace perfduel
