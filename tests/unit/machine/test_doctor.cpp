#include <cerrno>

#include <catch2/catch.hpp>

#include "machine/doctor.hpp"

using namespace perfduel;

namespace {

const std::string k_cpu = "/sys/devices/system/cpu";

}  // namespace

TEST_CASE("format_cpu_list writes ranges", "[doctor]") {
  CHECK(format_cpu_list({}) == "");
  CHECK(format_cpu_list({3}) == "3");
  CHECK(format_cpu_list({6, 0, 1, 2, 3, 3}) == "0-3,6");
  CHECK(format_cpu_list({0, 2, 4, 5}) == "0,2,4-5");
}

TEST_CASE("governor: performance wanted, missing cpufreq is a remark", "[doctor]") {
  const auto ok = check_governor({{0, "performance\n"}, {1, "performance\n"}});
  CHECK(ok.status == CheckStatus::ok);
  CHECK(ok.finding == "governor \"performance\" on CPU 0-1");
  CHECK(ok.fix.empty());

  const auto mixed =
      check_governor({{0, "powersave\n"}, {1, "performance\n"}, {2, "schedutil\n"}, {3, "powersave\n"}});
  CHECK(mixed.status == CheckStatus::warn);
  CHECK(mixed.finding ==
        "governor \"powersave\" on CPU 0,3, \"schedutil\" on CPU 2 (want \"performance\": others change the "
        "clock "
        "during a run)");
  CHECK(mixed.fix == "echo performance | sudo tee " + k_cpu + "/cpu{0,2,3}/cpufreq/scaling_governor");

  const auto one = check_governor({{5, "ondemand"}});
  CHECK(one.fix == "echo performance | sudo tee " + k_cpu + "/cpu5/cpufreq/scaling_governor");

  const auto vm = check_governor({{0, std::nullopt}, {1, std::nullopt}});
  CHECK(vm.status == CheckStatus::info);
  CHECK(vm.finding ==
        "no cpufreq interface: the clock is managed by the hypervisor or firmware (virtual machine?)");
}

TEST_CASE("turbo: intel_pstate first, then cpufreq/boost", "[doctor]") {
  const auto on = check_turbo("0\n", std::nullopt);
  CHECK(on.status == CheckStatus::warn);
  CHECK(on.finding ==
        "turbo boost is on (intel_pstate/no_turbo = 0): the clock follows temperature and the other cores' "
        "load");
  CHECK(on.fix == "echo 1 | sudo tee " + k_cpu + "/intel_pstate/no_turbo");

  const auto off = check_turbo("1\n", "1\n");
  CHECK(off.status == CheckStatus::ok);
  CHECK(off.finding == "turbo boost is off (intel_pstate/no_turbo = 1)");

  const auto boost = check_turbo(std::nullopt, "1\n");
  CHECK(boost.status == CheckStatus::warn);
  CHECK(boost.fix == "echo 0 | sudo tee " + k_cpu + "/cpufreq/boost");
  CHECK(check_turbo(std::nullopt, "0").status == CheckStatus::ok);

  const auto none = check_turbo(std::nullopt, std::nullopt);
  CHECK(none.status == CheckStatus::info);
  CHECK(none.finding ==
        "no turbo control (intel_pstate/no_turbo, cpufreq/boost): virtual machine or fixed clock");

  const auto odd = check_turbo("maybe", std::nullopt);
  CHECK(odd.status == CheckStatus::info);
  CHECK(odd.finding == "intel_pstate/no_turbo reads \"maybe\", expected 1 or 0");
}

TEST_CASE("load: per CPU against the warn and fail limits", "[doctor]") {
  const auto idle = check_load("0.10 0.20 0.30 1/123 4567\n", 4);
  CHECK(idle.status == CheckStatus::ok);
  CHECK(idle.finding == "load average 0.10 (1 min) on 4 CPUs, 0.03 per CPU");
  CHECK(idle.fix.empty());

  const auto busy = check_load("1.50 1.00 1.00 2/123 4567\n", 4);
  CHECK(busy.status == CheckStatus::warn);
  CHECK(busy.finding ==
        "load average 1.50 (1 min) on 4 CPUs, 0.38 per CPU: other work will disturb the runs");
  CHECK(busy.fix ==
        "stop other work (top -o %CPU) and wait until the first number of /proc/loadavg is below 1.00");

  const auto saturated = check_load("6.54 2.42 1.59 13/145 26108\n", 2);
  CHECK(saturated.status == CheckStatus::fail);
  CHECK(saturated.finding ==
        "load average 6.54 (1 min) on 2 CPUs, 3.27 per CPU: more runnable tasks than CPUs, runs will wait "
        "for a CPU");

  CHECK(check_load(std::nullopt, 2).finding == "load unknown: cannot read /proc/loadavg");
  CHECK(check_load("x", 2).status == CheckStatus::info);
}

TEST_CASE("affinity: a requested CPU that cannot be pinned fails", "[doctor]") {
  const auto ok = check_affinity({{0, 0}, {1, 0}}, CpuSelection::requested);
  CHECK(ok.status == CheckStatus::ok);
  CHECK(ok.finding == "can pin to CPU 0-1");

  const auto partial = check_affinity({{0, 0}, {1, 0}, {2, EINVAL}, {3, EINVAL}}, CpuSelection::requested);
  CHECK(partial.status == CheckStatus::fail);
  CHECK(partial.finding ==
        "cannot pin to CPU 2-3 (EINVAL: outside this process's cpuset or offline); can pin to CPU 0-1");
  CHECK(partial.fix == "pin to CPUs that work: perfduel compare --cpus 0-1");

  CHECK(check_affinity({{0, 0}, {1, EINVAL}}, CpuSelection::all_online).status == CheckStatus::warn);

  const auto none = check_affinity({{0, EPERM}}, CpuSelection::all_online);
  CHECK(none.status == CheckStatus::fail);
  CHECK(none.finding == "cannot pin to CPU 0 (EPERM)");
  CHECK(none.fix ==
        "run where this process may set its CPU affinity (check: taskset -pc $$; Docker: --cpuset-cpus)");
}

TEST_CASE("realtime: SCHED_FIFO permitted or a warning with the fix", "[doctor]") {
  CHECK(check_realtime(0).status == CheckStatus::ok);
  CHECK(check_realtime(0).finding == "SCHED_FIFO is permitted: runs can get real-time priority");
  const auto refused = check_realtime(EPERM);
  CHECK(refused.status == CheckStatus::warn);
  CHECK(refused.finding ==
        "SCHED_FIFO is not permitted (EPERM): runs compete with other tasks at normal priority");
  CHECK(refused.fix ==
        "grant CAP_SYS_NICE (sudo setcap cap_sys_nice+ep \"$(command -v perfduel)\"; Docker: "
        "--cap-add=SYS_NICE) or "
        "raise RLIMIT_RTPRIO (ulimit -r 1)");
}

TEST_CASE("perf counters: paranoid level, permissions and missing PMU", "[doctor]") {
  const auto works = check_perf_counters("2\n", PerfProbe{0, 123456});
  CHECK(works.status == CheckStatus::ok);
  CHECK(works.finding == "the instructions counter works (perf_event_paranoid = 2)");

  const auto zero = check_perf_counters("2\n", PerfProbe{0, 0});
  CHECK(zero.status == CheckStatus::warn);
  CHECK(zero.finding == "the instructions counter opens but counts nothing (perf_event_paranoid = 2)");

  const auto closed = check_perf_counters("3\n", PerfProbe{EACCES, 0});
  CHECK(closed.status == CheckStatus::warn);
  CHECK(closed.finding == "perf counters are closed to unprivileged users (perf_event_paranoid = 3, EACCES)");
  CHECK(closed.fix == "sudo sysctl kernel.perf_event_paranoid=2");

  const auto seccomp = check_perf_counters("1\n", PerfProbe{EPERM, 0});
  CHECK(seccomp.finding ==
        "perf_event_open is refused (EPERM) although perf_event_paranoid = 1: a seccomp filter or a missing "
        "CAP_PERFMON");
  CHECK(seccomp.fix == "Docker: --cap-add=PERFMON (or --security-opt seccomp=unconfined)");

  const auto vm = check_perf_counters("2\n", PerfProbe{ENOENT, 0});
  CHECK(vm.status == CheckStatus::info);
  CHECK(vm.finding == "no hardware instructions counter (ENOENT): virtual machine without a virtual PMU?");

  CHECK(check_perf_counters(std::nullopt, PerfProbe{ENOSYS, 0}).finding ==
        "the kernel has no perf events (ENOSYS)");
}

TEST_CASE("aslr: full randomisation wanted", "[doctor]") {
  const auto full = check_aslr("2\n");
  CHECK(full.status == CheckStatus::ok);
  CHECK(full.finding ==
        "ASLR is fully on (randomize_va_space = 2): layout luck averages out over the rounds");

  const auto off = check_aslr("0\n");
  CHECK(off.status == CheckStatus::warn);
  CHECK(off.finding ==
        "ASLR is off (randomize_va_space = 0): a layout accident becomes a bias no number of rounds shows");
  CHECK(off.fix == "echo 2 | sudo tee /proc/sys/kernel/randomize_va_space");

  CHECK(check_aslr("1").status == CheckStatus::warn);
  CHECK(check_aslr(std::nullopt).status == CheckStatus::info);
}

TEST_CASE("isolation: isolated CPUs against the CPUs under test", "[doctor]") {
  const auto none = check_isolation("\n", {0, 1}, CpuSelection::all_online);
  CHECK(none.status == CheckStatus::info);
  CHECK(none.finding == "no CPU is isolated: the scheduler may put other tasks on CPU 0-1");
  CHECK(none.fix == "boot with isolcpus=1 nohz_full=1 and pin the duel there: perfduel compare --cpus 1");

  const auto good = check_isolation("2-3\n", {2, 3}, CpuSelection::requested);
  CHECK(good.status == CheckStatus::ok);
  CHECK(good.finding == "CPU 2-3 isolated from the scheduler (isolated: 2-3)");

  const auto wrong = check_isolation("2-3\n", {1, 2}, CpuSelection::requested);
  CHECK(wrong.status == CheckStatus::warn);
  CHECK(wrong.finding == "CPU 1 not isolated (isolated: 2-3)");
  CHECK(wrong.fix == "pin the duel to isolated CPUs: perfduel compare --cpus 2-3");

  const auto unused = check_isolation("3\n", {0, 1, 2}, CpuSelection::all_online);
  CHECK(unused.status == CheckStatus::info);
  CHECK(unused.finding == "CPU 3 isolated, but an unpinned duel does not use them");
  CHECK(unused.fix == "pin the duel to them: perfduel compare --cpus 3");

  CHECK(check_isolation(std::nullopt, {0}, CpuSelection::all_online).status == CheckStatus::info);
}

TEST_CASE("smt: siblings of the CPUs under test", "[doctor]") {
  const auto alone = check_smt({{0, "0\n"}, {1, "1\n"}});
  CHECK(alone.status == CheckStatus::ok);
  CHECK(alone.finding == "no SMT sibling: CPU 0-1 each have a core of their own");

  const auto shared = check_smt({{2, "2,6\n"}, {3, "3,7\n"}});
  CHECK(shared.status == CheckStatus::warn);
  CHECK(shared.finding == "SMT is on: 2 of 2 CPUs share a core (CPU 2 with 6); a busy sibling slows the run");
  CHECK(shared.fix ==
        "echo off | sudo tee " + k_cpu + "/smt/control, or keep CPU 6-7 idle (isolate them too)");

  const auto all = check_smt({{0, "0-1\n"}, {1, "0-1\n"}});
  CHECK(all.finding == "SMT is on: 2 of 2 CPUs share a core (CPU 0 with 1); a busy sibling slows the run");
  CHECK(all.fix == "echo off | sudo tee " + k_cpu + "/smt/control");

  CHECK(check_smt({{3, "3"}, {5, std::nullopt}}).finding == "no SMT sibling: CPU 3 has a core of its own");
  CHECK(check_smt({{0, std::nullopt}}).status == CheckStatus::info);
}

TEST_CASE("swap: configured, used, and swapping now", "[doctor]") {
  const std::string no_swap = "MemTotal: 1000 kB\nSwapTotal:       0 kB\nSwapFree:        0 kB\n";
  CHECK(check_swap(no_swap, std::nullopt, std::nullopt, 0.25).finding == "no swap configured");

  const std::string used = "SwapTotal:    2048 kB\nSwapFree:     1024 kB\n";
  const std::string before = "pgpgin 5\npswpin 10\npswpout 20\n";
  const auto quiet = check_swap(used, before, before, 0.25);
  CHECK(quiet.status == CheckStatus::ok);
  CHECK(quiet.finding == "1.0 MiB of swap in use, no swap traffic in 0.25 s");

  const auto swapping = check_swap(used, before, "pgpgin 5\npswpin 13\npswpout 24\n", 0.25);
  CHECK(swapping.status == CheckStatus::warn);
  CHECK(swapping.finding == "the machine is swapping: 3 pages in, 4 out in 0.25 s (1.0 MiB of swap in use)");
  CHECK(swapping.fix == "free memory (stop other work), or sudo swapoff -a if the RAM suffices");

  CHECK(check_swap(std::nullopt, std::nullopt, std::nullopt, 0).status == CheckStatus::info);
}

TEST_CASE("diagnose runs every check in order; only fail is worst", "[doctor]") {
  MachineFacts facts;
  facts.online_cpus = {0, 1};
  std::vector<int> cpus = {0, 1};
  auto selection = CpuSelection::all_online;
  facts.governors = {{0, "performance"}, {1, "performance"}};
  facts.intel_no_turbo = "1";
  facts.loadavg = "0.01 0.01 0.01 1/100 1";
  facts.affinity = {{0, 0}, {1, 0}};
  facts.perf_event_paranoid = "2";
  facts.perf = {0, 1000};
  facts.randomize_va_space = "2";
  facts.isolated = "0-1";
  facts.thread_siblings = {{0, "0"}, {1, "1"}};
  facts.meminfo = "SwapTotal: 0 kB\nSwapFree: 0 kB\n";
  auto findings = diagnose(facts, cpus, selection);
  REQUIRE(findings.size() == 10);
  CHECK(findings.front().check == "governor");
  CHECK(findings.back().check == "swap");
  CHECK(worst_status(findings) == CheckStatus::ok);

  facts.realtime_error = EPERM;
  CHECK(worst_status(diagnose(facts, cpus, selection)) == CheckStatus::warn);
  facts.loadavg = "4.0 1 1 1/1 1";
  CHECK(worst_status(diagnose(facts, cpus, selection)) == CheckStatus::fail);

  // A requested CPU that does not exist fails pinning and is never suggested for isolation.
  cpus = {1, 3};
  selection = CpuSelection::requested;
  facts.isolated = "";
  facts.affinity = {{1, 0}, {3, EINVAL}};
  findings = diagnose(facts, cpus, selection);
  CHECK(findings[3].status == CheckStatus::fail);
  CHECK(findings[7].finding == "no CPU is isolated: the scheduler may put other tasks on CPU 1");
  CHECK(findings[7].fix ==
        "boot with isolcpus=1 nohz_full=1 and pin the duel there: perfduel compare --cpus 1");
  CHECK(to_string(CheckStatus::fail) == "fail");
}
