#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

// Facts about the machine perfduel runs on, read in one place: `doctor` judges them, reports
// record them, history keys results by their fingerprint and pinning chooses CPUs from them.
namespace perfduel {

// The contents of one per-CPU file; `content` is empty when the file does not exist.
struct CpuFile {
  int cpu = 0;
  std::optional<std::string> content;
};

// The outcome of pinning this process (thread) to `cpu` alone; `error` is the errno, 0 on success.
struct AffinityProbe {
  int cpu = 0;
  int error = 0;
};

// The outcome of opening (and reading) a user-space instructions counter with
// perf_event_open; `error` is the errno, 0 on success, and `count` what it counted over a
// short busy loop.
struct PerfProbe {
  int error = 0;
  std::uint64_t count = 0;
};

// Which facts to gather: the files alone (cheap, for every compare and record), or also the
// probes that change something for a moment or take time (affinity, SCHED_FIFO in a child,
// perf_event_open, a 250 ms swap-traffic window), which only `doctor` needs.
enum class Probing { files_only, full };

// Everything read about the machine. Optional strings are absent files; per-CPU files are
// listed for every online CPU (plus the probed ones). Tests fill this in by hand, or read it
// from a fake directory tree with read_machine_facts(root, ...).
struct MachineFacts {
  // Identity: /proc/sys/kernel/{hostname,ostype,osrelease}, /proc/cpuinfo, uname's machine.
  std::string host;
  std::string cpu_model;
  std::string kernel_name;     // "Linux"
  std::string kernel_release;  // "6.1.0-18-amd64"
  std::string architecture;    // "x86_64"; empty when read from a fake root

  std::vector<int> online_cpus;
  std::vector<int> allowed_cpus;              // this process's affinity (Cpus_allowed_list), empty if unknown
  std::optional<std::string> isolated;        // /sys/devices/system/cpu/isolated
  std::optional<std::string> nohz_full;       // /sys/devices/system/cpu/nohz_full
  std::vector<CpuFile> governors;             // cpuN/cpufreq/scaling_governor
  std::vector<CpuFile> thread_siblings;       // cpuN/topology/thread_siblings_list
  std::optional<std::string> intel_no_turbo;  // intel_pstate/no_turbo
  std::optional<std::string> cpufreq_boost;   // cpufreq/boost (acpi-cpufreq, amd)
  std::optional<std::string> loadavg;         // /proc/loadavg
  std::optional<std::string> perf_event_paranoid;  // read_perf_event_paranoid: "2"
  std::optional<std::string> randomize_va_space;
  std::optional<std::string> meminfo;  // /proc/meminfo

  // Probing::full only.
  std::vector<AffinityProbe> affinity;  // per probed CPU
  int realtime_error = 0;               // errno of sched_setscheduler(SCHED_FIFO) in a child
  PerfProbe perf;
  std::optional<std::string> vmstat_before;  // /proc/vmstat, twice, `swap_window_seconds` apart
  std::optional<std::string> vmstat_after;
  double swap_window_seconds = 0.0;
};

// Reads the facts under `root` ("/" for this machine; a directory with sys/ and proc/ in
// tests). With Probing::full also probes pinning to each of `probe_cpus` (empty: every online
// CPU), real-time priority and perf counters (in forked children where a probe would change
// this process).
MachineFacts read_machine_facts(const std::filesystem::path& root = "/",
                                Probing probing = Probing::files_only,
                                const std::vector<int>& probe_cpus = {});

// The value of the line named `key` in `text`, a /proc file of "key: value" lines
// (/proc/cpuinfo, /proc/self/status, /proc/meminfo) or "key value" lines (/proc/vmstat),
// trimmed; none when no line has that name. A line's name is what precedes its first ':', or
// its first blank when it has no ':'.
std::optional<std::string> proc_field(std::string_view text, std::string_view key);

// The text of kernel/perf_event_paranoid under `root`'s /proc/sys, trimmed ("2"); none when
// unreadable. Read for MachineFacts and again, when a counter fails to open, for its message.
std::optional<std::string> read_perf_event_paranoid(const std::filesystem::path& root = "/");

// This process's peak resident set (VmHWM of `root`'s /proc/self/status) in bytes; 0 if unknown.
double read_own_peak_rss(const std::filesystem::path& root = "/");

// The 1, 5 and 15 minute load averages in `loadavg` (/proc/loadavg text), or why not: the
// error of the first word that is not a number, or that there are fewer than three.
util::Expected<std::vector<double>> parse_load_averages(std::string_view loadavg);

// The isolated CPUs of `facts` (isolcpus), parsed; empty when none or unreadable.
std::vector<int> isolated_cpus(const MachineFacts& facts);

// The CPUs sharing a core with `cpu` (its SMT siblings, `cpu` itself excluded) in `facts`.
std::vector<int> smt_siblings(const MachineFacts& facts, int cpu);

// The 1, 5 and 15 minute load averages of `facts`; empty when unreadable.
std::vector<double> load_averages(const MachineFacts& facts);

// The kernel as uname prints it: "Linux 6.1.0-18-amd64 x86_64".
std::string kernel_text(const MachineFacts& facts);

// `cpus` (sorted or not) written as ranges, the inverse of util::parse_cpu_list: "0-3,6".
std::string format_cpu_list(std::vector<int> cpus);

// Which machine a result was measured on, as history keys it: `description` is
// "host | CPU model | kernel release" and `id` 16 hex digits of its FNV-1a hash.
struct Fingerprint {
  std::string description;
  std::string id;
};

// The one fingerprint formula, from `host`, `cpu_model` and `kernel_release` (an empty
// part reads "unknown host", "unknown CPU", "unknown kernel").
Fingerprint machine_fingerprint(std::string_view host, std::string_view cpu_model,
                                std::string_view kernel_release);

// The fingerprint of the machine `facts` describe.
Fingerprint machine_fingerprint(const MachineFacts& facts);

// The id of a free-text machine `description` (`record --machine TEXT`): its FNV-1a hash.
std::string machine_id(std::string_view description);

// History schema 1 described a machine recorded from a report as "host | CPU model |
// <kernel name> <release> <architecture>" (uname's three words), one recorded with --metric
// with the release alone. The current fingerprint of `description` when it has the report
// path's old shape, else none (it is current already, or free text from --machine).
std::optional<Fingerprint> migrate_legacy_description(std::string_view description);

}  // namespace perfduel
