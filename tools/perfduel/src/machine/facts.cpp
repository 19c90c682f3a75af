#include "machine/facts.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr auto k_swap_window = std::chrono::milliseconds(250);

std::optional<std::string> read_text(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  return text ? std::optional<std::string>(std::move(text).value()) : std::nullopt;
}

std::string trimmed(const std::optional<std::string>& text) {
  return text ? std::string(util::trim(*text)) : std::string();
}

// The value of `key` in the /proc text `text`, empty when either is missing.
std::string field(const std::optional<std::string>& text, std::string_view key) {
  return text ? proc_field(*text, key).value_or(std::string()) : std::string();
}

std::vector<int> cpu_list(std::string_view text) {
  auto cpus = util::parse_cpu_list(util::trim(text));
  return cpus ? std::move(cpus).value() : std::vector<int>{};
}

std::vector<CpuFile> per_cpu_files(const std::filesystem::path& cpu_dir, const std::vector<int>& cpus,
                                   std::string_view leaf) {
  std::vector<CpuFile> files;
  files.reserve(cpus.size());
  for (const int cpu : cpus) {
    files.push_back({cpu, read_text(cpu_dir / fmt::format("cpu{}", cpu) / leaf)});
  }
  return files;
}

// Pins this thread to each CPU in turn and restores the original mask. The doctor is
// single-threaded and runs nothing in between, so borrowing its own affinity is harmless.
std::vector<AffinityProbe> probe_affinity(const std::vector<int>& cpus) {
  const int max_cpu = cpus.empty() ? 0 : *std::max_element(cpus.begin(), cpus.end());
  const int capacity = std::max(max_cpu + 1, CPU_SETSIZE);
  const std::size_t size = CPU_ALLOC_SIZE(capacity);
  cpu_set_t* saved = CPU_ALLOC(capacity);
  cpu_set_t* single = CPU_ALLOC(capacity);
  std::vector<AffinityProbe> probes;
  const bool have_saved = ::sched_getaffinity(0, size, saved) == 0;
  for (const int cpu : cpus) {
    CPU_ZERO_S(size, single);
    CPU_SET_S(static_cast<std::size_t>(cpu), size, single);
    const int error = ::sched_setaffinity(0, size, single) == 0 ? 0 : errno;
    probes.push_back({cpu, error});
  }
  if (have_saved) {
    ::sched_setaffinity(0, size, saved);
  }
  CPU_FREE(single);
  CPU_FREE(saved);
  return probes;
}

// Tries SCHED_FIFO in a forked child, so this process never runs at real-time priority.
int probe_realtime() {
  const pid_t child = ::fork();
  if (child < 0) {
    return errno;
  }
  if (child == 0) {
    sched_param parameter{};
    parameter.sched_priority = 1;
    ::_exit(::sched_setscheduler(0, SCHED_FIFO, &parameter) == 0 ? 0 : (errno & 0xff));
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      return errno;
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : EINVAL;
}

// Opens a user-space instructions counter on this process and counts a short loop.
PerfProbe probe_perf() {
  perf_event_attr attributes{};
  attributes.size = sizeof(attributes);
  attributes.type = PERF_TYPE_HARDWARE;
  attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
  attributes.disabled = 1;
  attributes.exclude_kernel = 1;
  attributes.exclude_hv = 1;
  const auto fd =
      static_cast<int>(::syscall(SYS_perf_event_open, &attributes, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) {
    return {errno, 0};
  }
  PerfProbe probe;
  ::ioctl(fd, PERF_EVENT_IOC_RESET, 0);
  ::ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  volatile std::uint64_t sink = 0;
  for (int i = 0; i < 100000; ++i) {
    sink = sink + static_cast<std::uint64_t>(i);
  }
  ::ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  std::uint64_t count = 0;
  if (::read(fd, &count, sizeof(count)) != static_cast<ssize_t>(sizeof(count))) {
    probe.error = errno != 0 ? errno : EINVAL;
  }
  probe.count = count;
  ::close(fd);
  return probe;
}

}  // namespace

MachineFacts read_machine_facts(const std::filesystem::path& root, Probing probing,
                                const std::vector<int>& probe_cpus) {
  const auto proc = root / "proc";
  const auto cpu_dir = root / "sys/devices/system/cpu";
  MachineFacts facts;
  facts.host = trimmed(read_text(proc / "sys/kernel/hostname"));
  facts.kernel_name = trimmed(read_text(proc / "sys/kernel/ostype"));
  facts.kernel_release = trimmed(read_text(proc / "sys/kernel/osrelease"));
  facts.cpu_model = field(read_text(proc / "cpuinfo"), "model name");
  if (root == "/") {
    utsname names{};
    if (::uname(&names) == 0) {
      facts.architecture = names.machine;
    }
  }

  if (const auto online = read_text(cpu_dir / "online")) {
    facts.online_cpus = cpu_list(*online);
  }
  if (facts.online_cpus.empty() && root == "/") {
    facts.online_cpus.resize(static_cast<std::size_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN))));
    for (std::size_t i = 0; i < facts.online_cpus.size(); ++i) {
      facts.online_cpus[i] = static_cast<int>(i);
    }
  }
  // The process's mask (all threads start with the main thread's): what pinning may use.
  facts.allowed_cpus = cpu_list(field(read_text(proc / "self/status"), "Cpus_allowed_list"));
  facts.isolated = read_text(cpu_dir / "isolated");
  facts.nohz_full = read_text(cpu_dir / "nohz_full");

  std::vector<int> per_cpu = facts.online_cpus;
  per_cpu.insert(per_cpu.end(), probe_cpus.begin(), probe_cpus.end());
  std::sort(per_cpu.begin(), per_cpu.end());
  per_cpu.erase(std::unique(per_cpu.begin(), per_cpu.end()), per_cpu.end());
  facts.governors = per_cpu_files(cpu_dir, per_cpu, "cpufreq/scaling_governor");
  facts.thread_siblings = per_cpu_files(cpu_dir, per_cpu, "topology/thread_siblings_list");
  facts.intel_no_turbo = read_text(cpu_dir / "intel_pstate/no_turbo");
  facts.cpufreq_boost = read_text(cpu_dir / "cpufreq/boost");
  facts.loadavg = read_text(proc / "loadavg");
  facts.perf_event_paranoid = read_perf_event_paranoid(root);
  facts.randomize_va_space = read_text(proc / "sys/kernel/randomize_va_space");
  facts.meminfo = read_text(proc / "meminfo");

  if (probing == Probing::full) {
    facts.affinity = probe_affinity(probe_cpus.empty() ? facts.online_cpus : probe_cpus);
    facts.realtime_error = probe_realtime();
    facts.perf = probe_perf();
    const auto start = std::chrono::steady_clock::now();
    facts.vmstat_before = read_text(proc / "vmstat");
    std::this_thread::sleep_for(k_swap_window);
    facts.vmstat_after = read_text(proc / "vmstat");
    facts.swap_window_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return facts;
}

std::optional<std::string> proc_field(std::string_view text, std::string_view key) {
  for (const auto& line : util::split_lines(text)) {
    const std::string_view view(line);
    auto end = view.find(':');
    if (end == std::string_view::npos) {
      end = view.find_first_of(" \t");
    }
    if (util::trim(view.substr(0, end)) == key) {
      return std::string(end == std::string_view::npos ? std::string_view()
                                                       : util::trim(view.substr(end + 1)));
    }
  }
  return std::nullopt;
}

std::optional<std::string> read_perf_event_paranoid(const std::filesystem::path& root) {
  const auto text = read_text(root / "proc/sys/kernel/perf_event_paranoid");
  return text ? std::optional<std::string>(util::trim(*text)) : std::nullopt;
}

double read_own_peak_rss(const std::filesystem::path& root) {
  const auto peak = field(read_text(root / "proc/self/status"), "VmHWM");  // "6120 kB"
  const auto kilobytes = util::parse_double(peak.substr(0, peak.find(' ')));
  return kilobytes ? 1024.0 * *kilobytes : 0.0;
}

util::Expected<std::vector<double>> parse_load_averages(std::string_view loadavg) {
  using Result = util::Expected<std::vector<double>>;
  std::istringstream words{std::string(loadavg)};
  std::vector<double> load;
  for (std::string word; load.size() < 3 && words >> word;) {
    const auto value = util::parse_double(word);
    if (!value) {
      return Result::failure(value.error());
    }
    load.push_back(*value);
  }
  if (load.size() < 3) {
    return Result::failure("fewer than three load averages");
  }
  return load;
}

std::vector<int> isolated_cpus(const MachineFacts& facts) {
  return facts.isolated ? cpu_list(*facts.isolated) : std::vector<int>{};
}

std::vector<int> smt_siblings(const MachineFacts& facts, int cpu) {
  for (const auto& file : facts.thread_siblings) {
    if (file.cpu == cpu && file.content) {
      auto siblings = cpu_list(*file.content);
      std::erase(siblings, cpu);
      return siblings;
    }
  }
  return {};
}

std::vector<double> load_averages(const MachineFacts& facts) {
  if (!facts.loadavg) {
    return {};
  }
  auto load = parse_load_averages(*facts.loadavg);
  return load ? std::move(load).value() : std::vector<double>{};
}

std::string kernel_text(const MachineFacts& facts) {
  std::string text = facts.kernel_name;
  for (const auto* part : {&facts.kernel_release, &facts.architecture}) {
    if (!part->empty()) {
      text += (text.empty() ? "" : " ") + *part;
    }
  }
  return text;
}

std::string format_cpu_list(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string text;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) {
      ++j;
    }
    if (!text.empty()) {
      text += ',';
    }
    text += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return text;
}

std::string machine_id(std::string_view description) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : description) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

// The kernel release alone: the version is what changes a machine's speed (a new scheduler,
// a mitigation); the kernel name is always Linux here and the architecture follows the CPU
// model. uname's three words in reports and the release in `record --metric` used to give
// one machine two ids.
Fingerprint machine_fingerprint(std::string_view host, std::string_view cpu_model,
                                std::string_view kernel_release) {
  const auto part = [](std::string_view text, std::string_view unknown) {
    text = util::trim(text);
    return text.empty() ? unknown : text;
  };
  Fingerprint fingerprint;
  fingerprint.description =
      fmt::format("{} | {} | {}", part(host, "unknown host"), part(cpu_model, "unknown CPU"),
                  part(kernel_release, "unknown kernel"));
  fingerprint.id = machine_id(fingerprint.description);
  return fingerprint;
}

Fingerprint machine_fingerprint(const MachineFacts& facts) {
  return machine_fingerprint(facts.host, facts.cpu_model, facts.kernel_release);
}

std::optional<Fingerprint> migrate_legacy_description(std::string_view description) {
  const auto last_bar = description.rfind(" | ");
  if (last_bar == std::string_view::npos ||
      description.substr(0, last_bar).find(" | ") == std::string_view::npos) {
    return std::nullopt;
  }
  const auto kernel = description.substr(last_bar + 3);
  std::istringstream words{std::string(kernel)};
  std::vector<std::string> parts;
  for (std::string word; words >> word;) {
    parts.push_back(word);
  }
  // uname's sysname is one word ("Linux"); the release and the machine have no spaces.
  if (parts.size() != 3 || parts[0] != "Linux") {
    return std::nullopt;
  }
  const auto head = description.substr(0, last_bar);
  const auto first_bar = head.find(" | ");
  return machine_fingerprint(head.substr(0, first_bar), head.substr(first_bar + 3), parts[1]);
}

}  // namespace perfduel
