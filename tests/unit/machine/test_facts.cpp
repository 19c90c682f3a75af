#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "machine/facts.hpp"

using namespace perfduel;
namespace fs = std::filesystem;

namespace {

// A fake root with sys/ and proc/ files, removed at the end of the test.
class FakeRoot {
 public:
  FakeRoot() {
    std::random_device device;
    m_path = fs::temp_directory_path() /
             ("perfduel-facts-test-" + std::to_string(::getpid()) + "-" + std::to_string(device()));
  }
  FakeRoot(const FakeRoot&) = delete;
  FakeRoot& operator=(const FakeRoot&) = delete;
  ~FakeRoot() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  void write(const std::string& relative, const std::string& text) const {
    const auto path = m_path / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

}  // namespace

TEST_CASE("facts are read from a fake sysfs and procfs tree", "[machine]") {
  FakeRoot root;
  const std::string cpu = "sys/devices/system/cpu/";
  root.write("proc/sys/kernel/hostname", "bench-7\n");
  root.write("proc/sys/kernel/ostype", "Linux\n");
  root.write("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  root.write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel Xeon E-2288G\n");
  root.write("proc/self/status", "Name:\tperfduel\nCpus_allowed_list:\t0-3\n");
  root.write("proc/loadavg", "0.50 0.25 0.10 1/200 42\n");
  root.write(cpu + "online", "0-3\n");
  root.write(cpu + "isolated", "2-3\n");
  root.write(cpu + "nohz_full", "2-3\n");
  for (int i = 0; i < 4; ++i) {
    root.write(cpu + "cpu" + std::to_string(i) + "/topology/thread_siblings_list",
               i % 2 == 0 ? "0,2\n" : "1,3\n");
  }
  root.write(cpu + "cpu0/cpufreq/scaling_governor", "powersave\n");

  const auto facts = read_machine_facts(root.path());
  CHECK(facts.host == "bench-7");
  CHECK(facts.cpu_model == "Intel Xeon E-2288G");
  CHECK(kernel_text(facts) == "Linux 6.1.0-18-amd64");
  CHECK(facts.online_cpus == std::vector<int>{0, 1, 2, 3});
  CHECK(facts.allowed_cpus == std::vector<int>{0, 1, 2, 3});
  CHECK(isolated_cpus(facts) == std::vector<int>{2, 3});
  CHECK(smt_siblings(facts, 2) == std::vector<int>{0});
  CHECK(load_averages(facts) == std::vector<double>{0.5, 0.25, 0.1});
  REQUIRE(facts.governors.size() == 4);
  CHECK(facts.governors[0].content == "powersave\n");
  CHECK_FALSE(facts.governors[1].content);
  CHECK(facts.affinity.empty());  // files only: nothing probed

  const auto fingerprint = machine_fingerprint(facts);
  CHECK(fingerprint.description == "bench-7 | Intel Xeon E-2288G | 6.1.0-18-amd64");
  CHECK(fingerprint.id == machine_id(fingerprint.description));
  CHECK(fingerprint.id.size() == 16);
}

TEST_CASE("one fingerprint; the old report formula is migrated, free text is not", "[machine]") {
  CHECK(machine_fingerprint("", " ", "").description == "unknown host | unknown CPU | unknown kernel");
  const auto migrated = migrate_legacy_description("vm | AMD EPYC | Linux 6.18.44-fc-v769 x86_64");
  REQUIRE(migrated);
  CHECK(migrated->description == "vm | AMD EPYC | 6.18.44-fc-v769");
  CHECK(migrated->id == machine_fingerprint("vm", "AMD EPYC", "6.18.44-fc-v769").id);
  CHECK_FALSE(migrate_legacy_description("vm | AMD EPYC | 6.18.44-fc-v769"));
  CHECK_FALSE(migrate_legacy_description("ci runner class large"));
  CHECK_FALSE(migrate_legacy_description("a | b | FreeBSD 14.0 amd64"));
}

TEST_CASE("one parser for the key-value lines of /proc files", "[machine]") {
  const std::string cpuinfo = "processor\t: 0\nmodel name\t: Intel Xeon E-2288G\nflags\t\t: fpu vme\n";
  CHECK(proc_field(cpuinfo, "model name") == "Intel Xeon E-2288G");
  CHECK(proc_field(cpuinfo, "processor") == "0");
  CHECK_FALSE(proc_field(cpuinfo, "model"));  // a name is matched whole, not as a prefix
  const std::string status = "Name:\tperfduel\nVmHWM:\t    6120 kB\nCpus_allowed_list:\t0-3\n";
  CHECK(proc_field(status, "VmHWM") == "6120 kB");
  CHECK(proc_field(status, "Cpus_allowed_list") == "0-3");
  CHECK(proc_field("SwapTotal:       2048 kB\nSwapFree:        1024 kB\n", "SwapFree") == "1024 kB");
  CHECK(proc_field("pgpgin 5\npswpin 13\npswpout 24\n", "pswpin") == "13");
  CHECK(proc_field("empty:\n", "empty") == "");
  CHECK_FALSE(proc_field("", "pswpin"));
}

TEST_CASE("load averages are parsed once, for the report and the doctor", "[machine]") {
  CHECK(parse_load_averages("0.50 0.25 0.10 1/200 42\n").value() == std::vector<double>{0.5, 0.25, 0.1});
  CHECK_FALSE(parse_load_averages("0.50 0.25\n"));
  CHECK_FALSE(parse_load_averages("x 0.25 0.10\n"));
  MachineFacts facts;
  CHECK(load_averages(facts).empty());
  facts.loadavg = "0.50 zero 0.10 1/200 42\n";
  CHECK(load_averages(facts).empty());
}

TEST_CASE("perf_event_paranoid and the peak resident set are read under the root", "[machine]") {
  FakeRoot root;
  CHECK_FALSE(read_perf_event_paranoid(root.path()));
  CHECK(read_own_peak_rss(root.path()) == 0.0);
  root.write("proc/sys/kernel/perf_event_paranoid", "2\n");
  root.write("proc/self/status", "Name:\tperfduel\nVmHWM:\t    6120 kB\n");
  CHECK(read_perf_event_paranoid(root.path()) == "2");
  CHECK(read_machine_facts(root.path()).perf_event_paranoid == "2");
  CHECK(read_own_peak_rss(root.path()) == 6120.0 * 1024);
  CHECK(read_own_peak_rss() > 0);  // this process's own
}
