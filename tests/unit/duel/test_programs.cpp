// What a duel's two sides run, fingerprinted before the warm-up (duel/programs.hpp): real
// programs and libraries (tests/programs), copied to other paths, changed by a byte, resolved
// by the real dynamic loader.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "duel/programs.hpp"
#include "report/table.hpp"
#include "report_format/json_report.hpp"
#include "run/process_executor.hpp"
#include "run/shared_libraries.hpp"
#include "util/elf.hpp"
#include "util/sha256.hpp"

using namespace perfduel;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TemporaryDirectory {
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "perfduel-programs-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TemporaryDirectory() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  fs::path path;
};

std::string read_all(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void write_all(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// `source` copied to `directory`/`name` (permissions kept), the directory made.
fs::path copy_to(const fs::path& source, const fs::path& directory, const std::string& name = {}) {
  fs::create_directories(directory);
  const auto target = directory / (name.empty() ? source.filename().string() : name);
  fs::copy_file(source, target, fs::copy_options::overwrite_existing);
  return target;
}

// Changes one byte of `path`: the first byte of the first occurrence of `marker`.
void change_byte_of(const fs::path& path, const std::string& marker) {
  auto bytes = read_all(path);
  const auto at = bytes.find(marker);
  REQUIRE(at != std::string::npos);
  bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
  write_all(path, bytes);
}

CommandSpec direct(std::vector<std::string> argv) {
  CommandSpec command;
  command.argv = std::move(argv);
  return command;
}

// Both sides of a duel, with the default metrics.
Config duel_of(CommandSpec baseline, CommandSpec candidate) {
  Config config = default_config();
  config.baseline = std::move(baseline);
  config.candidate = std::move(candidate);
  return config;
}

// An executor that must not be asked to run anything.
class NoRuns final : public Executor {
 public:
  RunResult run(const CommandSpec& /*command*/, const RunLimits& /*limits*/) override {
    ++runs;
    return {};
  }
  // No runs, no time: the clock stands still.
  double now_seconds() override { return 0; }
  int runs = 0;
};

const fs::path k_fake_bench = PERFDUEL_FAKE_BENCH;
const fs::path k_app = PERFDUEL_FINGERPRINT_APP;
const fs::path k_lib = PERFDUEL_FINGERPRINT_LIB;
const fs::path k_other_lib = PERFDUEL_FINGERPRINT_LIB_OTHER;

}  // namespace

TEST_CASE("SHA-256 comes from libcrypto: the standard's digests", "[fingerprint]") {
  CHECK(util::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(util::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  TemporaryDirectory directory;
  write_all(directory.path / "abc.txt", "abc");
  CHECK(*util::sha256_of_file(directory.path / "abc.txt") == util::sha256_hex("abc"));
  const auto missing = util::sha256_of_file(directory.path / "missing.txt");
  REQUIRE_FALSE(missing);
  CHECK(missing.error() ==
        (directory.path / "missing.txt").string() + ": cannot read (No such file or directory)");
}

TEST_CASE("an ELF image is what the loader maps: not trailing bytes, not the build-id", "[fingerprint]") {
  TemporaryDirectory directory;
  const auto original = copy_to(k_fake_bench, directory.path / "a");
  const auto image = util::read_elf_image(original);
  REQUIRE(image);
  REQUIRE(*image);
  CHECK((*image)->interpreter.rfind('/', 0) == 0);  // dynamically linked: its loader's path
  CHECK((*image)->sha256.size() == 64);

  // Bytes after the last section (as debug information would be) are not loaded.
  const auto longer = copy_to(k_fake_bench, directory.path / "b");
  write_all(longer, read_all(longer) + std::string(4096, 'x'));
  CHECK((*util::read_elf_image(longer))->sha256 == (*image)->sha256);

  // The GNU build-id note ("GNU\0" after namesz 4, descsz 20, type 3) hashes the whole file.
  const auto other_build_id = copy_to(k_fake_bench, directory.path / "c");
  const std::string note_header("\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0", 16);
  auto bytes = read_all(other_build_id);
  const auto note = bytes.find(note_header);
  REQUIRE(note != std::string::npos);
  bytes[note + note_header.size()] = static_cast<char>(bytes[note + note_header.size()] ^ 0xff);
  write_all(other_build_id, bytes);
  CHECK((*util::read_elf_image(other_build_id))->sha256 == (*image)->sha256);
  CHECK(*util::sha256_of_file(other_build_id) != *util::sha256_of_file(original));

  // One byte of its text (a string it prints) is loaded.
  const auto changed = copy_to(k_fake_bench, directory.path / "d");
  change_byte_of(changed, "usage: fake_bench");
  CHECK((*util::read_elf_image(changed))->sha256 != (*image)->sha256);
}

TEST_CASE("a file that is not ELF has no image; a broken one is an error naming it", "[fingerprint]") {
  TemporaryDirectory directory;
  write_all(directory.path / "script.sh", "#!/bin/sh\necho hello\n");
  const auto script = util::read_elf_image(directory.path / "script.sh");
  REQUIRE(script);
  CHECK_FALSE(*script);
  const auto truncated = directory.path / "truncated";
  write_all(truncated, read_all(k_fake_bench).substr(0, 40));
  const auto broken = util::read_elf_image(truncated);
  REQUIRE_FALSE(broken);
  CHECK(broken.error().rfind(truncated.string() + ": truncated ELF file", 0) == 0);
}

TEST_CASE("the loader's list is read as ldd shows it, in load order", "[fingerprint]") {
  const auto libraries = parse_loader_list(
      "\tlinux-vdso.so.1 (0x00007ffd0c1f2000)\n"
      "\t/usr/lib/preloaded.so (0x00007f0000001000)\n"
      "\tlibsort.so => /build dir/lib/libsort.so (0x00007f0000002000)\n"
      "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0000003000)\n"
      "\t/lib64/ld-linux-x86-64.so.2 (0x00007f0000004000)\n");
  REQUIRE(libraries);
  REQUIRE(libraries->size() == 4);
  CHECK((*libraries)[0].name == "/usr/lib/preloaded.so");
  CHECK((*libraries)[1].name == "libsort.so");
  CHECK((*libraries)[1].path == "/build dir/lib/libsort.so");
  CHECK((*libraries)[3].path == "/lib64/ld-linux-x86-64.so.2");
  const auto missing = parse_loader_list("\tlibgone.so.1 => not found\n");
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == "libgone.so.1: not found by the dynamic loader");
}

TEST_CASE("the same program at two paths is identical; a byte of it differs", "[fingerprint]") {
  TemporaryDirectory directory;
  ProcessExecutor executor;
  const auto a = copy_to(k_fake_bench, directory.path / "a");
  const auto b = copy_to(k_fake_bench, directory.path / "b" / "elsewhere");
  const auto same =
      compare_programs(duel_of(direct({a, "--work", "1"}), direct({b, "--work", "1"})), executor);
  REQUIRE(same.result == ProgramsCompared::identical);
  CHECK(same.reason.empty());
  CHECK(same.baseline->sha256 == same.candidate->sha256);
  CHECK(same.baseline->files.front().role == FileRole::executable);
  CHECK(same.baseline->files.front().path == a);
  CHECK(same.candidate->files.front().path == b);
  const auto& files = same.baseline->files;
  CHECK(std::any_of(files.begin(), files.end(), [](const FingerprintedFile& file) {
    return file.role == FileRole::library && file.name == "libc.so.6";
  }));

  change_byte_of(b, "usage: fake_bench");
  const auto changed =
      compare_programs(duel_of(direct({a, "--work", "1"}), direct({b, "--work", "1"})), executor);
  CHECK(changed.result == ProgramsCompared::different);
  CHECK(changed.reason == "the executable differs");

  const auto other_arguments =
      compare_programs(duel_of(direct({a, "--work", "1"}), direct({a, "--work", "2"})), executor);
  CHECK(other_arguments.result == ProgramsCompared::different);
  CHECK(other_arguments.reason == "argument 2 differs");
  const auto more_arguments =
      compare_programs(duel_of(direct({a, "--work", "1"}), direct({a, "--work", "1", "-v"})), executor);
  CHECK(more_arguments.reason == "only the candidate has argument 3");
}

TEST_CASE("an argument that names a file counts by the file's content, not its path", "[fingerprint]") {
  TemporaryDirectory directory;
  ProcessExecutor executor;
  write_all(directory.path / "a.txt", "input data\n");
  write_all(directory.path / "b.txt", "input data\n");
  write_all(directory.path / "c.txt", "input dato\n");
  const auto with = [&](const std::string& baseline, const std::string& candidate) {
    return compare_programs(duel_of(direct({k_fake_bench, baseline}), direct({k_fake_bench, candidate})),
                            executor);
  };
  const auto a = (directory.path / "a.txt").string();
  const auto b = (directory.path / "b.txt").string();
  const auto c = (directory.path / "c.txt").string();
  CHECK(with(a, b).result == ProgramsCompared::identical);
  CHECK(with(a, c).reason == "argument 1 differs");
  CHECK(with("--input=" + a, "--input=" + b).result == ProgramsCompared::identical);
  CHECK(with("--input=" + a, "--input=" + c).reason == "argument 1 differs");
  const auto files = with(a, b).baseline->files;
  CHECK(files.back().role == FileRole::argument);
  CHECK(files.back().name == "argument 1");
}

TEST_CASE("the shared library the loader resolves is part of the fingerprint", "[fingerprint]") {
  TemporaryDirectory directory;
  ProcessExecutor executor;
  // fingerprint_app loads libfingerprint_lib.so from its own directory ($ORIGIN).
  const auto lib_name = k_lib.filename().string();
  const auto one = copy_to(k_app, directory.path / "one");
  copy_to(k_lib, directory.path / "one");
  const auto same = copy_to(k_app, directory.path / "same");
  copy_to(k_lib, directory.path / "same");
  const auto other = copy_to(k_app, directory.path / "other");
  copy_to(k_other_lib, directory.path / "other", lib_name);

  const auto identical = compare_programs(duel_of(direct({one}), direct({same})), executor);
  REQUIRE(identical.result == ProgramsCompared::identical);
  const auto& files = identical.candidate->files;
  const auto library = std::find_if(files.begin(), files.end(),
                                    [&](const FingerprintedFile& file) { return file.name == lib_name; });
  REQUIRE(library != files.end());
  CHECK(library->path == directory.path / "same" / lib_name);

  const auto different = compare_programs(duel_of(direct({one}), direct({other})), executor);
  CHECK(different.result == ProgramsCompared::different);
  CHECK(different.reason == "the shared library " + lib_name + " differs");
}

TEST_CASE("a --shell command is never fingerprinted", "[fingerprint]") {
  NoRuns executor;
  CommandSpec shell;
  shell.launch = Launch::shell;
  shell.argv = {std::string(k_fake_bench) + " --work 1"};
  for (const auto& config : {duel_of(shell, shell), duel_of(direct({k_fake_bench}), shell)}) {
    const auto comparison = compare_programs(config, executor);
    CHECK(comparison.result == ProgramsCompared::not_fingerprinted);
    CHECK(comparison.reason == "--shell commands are not fingerprinted: the shell decides what runs");
    CHECK_FALSE(comparison.baseline);
  }
  CHECK(executor.runs == 0);
}

TEST_CASE("identical_programs: measure turns the fingerprints off", "[fingerprint][config]") {
  CHECK(default_config().identical_programs == IdenticalPrograms::skip);
  Config config = parse_config("identical_programs: measure\n", "gate.yaml");
  CHECK(config.identical_programs == IdenticalPrograms::measure);
  config.baseline = direct({k_fake_bench});
  config.candidate = direct({k_fake_bench});
  NoRuns executor;
  const auto comparison = compare_programs(config, executor);
  CHECK(comparison.result == ProgramsCompared::not_fingerprinted);
  CHECK(comparison.reason == "identical_programs: measure");
  CHECK(executor.runs == 0);
  REQUIRE_THROWS_WITH(parse_config("identical_programs: never\n", "gate.yaml"),
                      "gate.yaml:1: \"identical_programs\" must be one of skip, measure, not \"never\"");
}

TEST_CASE("identical programs are no change before the warm-up, and a report says so again",
          "[fingerprint]") {
  TemporaryDirectory directory;
  ProcessExecutor executor;
  const auto a = copy_to(k_fake_bench, directory.path / "a");
  const auto b = copy_to(k_fake_bench, directory.path / "b");
  const Config config = duel_of(direct({a, "--work", "1"}), direct({b, "--work", "1"}));
  const DuelOutcome outcome = run_duel_unless_identical(config, executor, nullptr, 7, {});
  CHECK(outcome.end == DuelEnd::identical);
  CHECK(outcome.runs.empty());
  CHECK(outcome.analysis.measured_rounds == 0);
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  REQUIRE(outcome.analysis.metrics.size() == config.metrics.size());
  for (const auto& metric : outcome.analysis.metrics) {
    CHECK(metric.verdict == Verdict::no_change);
    CHECK(metric.settled_by == SettledBy::identical);
    CHECK(metric.ci.lo == 0.0);
    CHECK(metric.ci.hi == 0.0);
  }
  CHECK(exit_code_for(outcome.end, outcome.analysis.verdict, config.on_inconclusive) == ExitCode::pass);

  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  const auto json = report_to_json(summary);
  CHECK(json["end"] == "identical-programs");
  CHECK(json["measured_rounds"] == 0);
  CHECK(json["programs"]["compared"] == "identical");
  CHECK(json["programs"]["baseline"]["sha256"] == outcome.programs.baseline->sha256);
  CHECK(json["metrics"][0]["settled_by"] == "identical-programs");
  const auto saved = report_from_json_strict(json, "report.json");
  CHECK(saved.end == DuelEnd::identical);
  CHECK(saved.programs.result == ProgramsCompared::identical);
  CHECK(saved.programs.candidate->files.front().path == b);
  CHECK(analyze_identical(saved.config).verdict == Verdict::no_change);

  const auto table = format_table(summary);
  CHECK_THAT(table, Catch::Contains("identical programs: nothing to measure, every metric is no change"));
  CHECK_THAT(table, Catch::Contains("fingerprint: sha256 " + outcome.programs.baseline->sha256));
  CHECK_THAT(table, Catch::Contains("verdict: NO-CHANGE after 0 rounds"));
  CHECK_THAT(format_markdown(summary), Catch::Contains("**Identical programs: nothing to measure.**"));
}

TEST_CASE("programs that differ are measured, and the first difference is named", "[fingerprint]") {
  ProgramFingerprint a;
  a.entries = {{"the executable", "1"}, {"the shared library libc.so.6", "2"}, {"argument 1", "text x"}};
  ProgramFingerprint b = a;
  CHECK(first_difference(a, b).empty());
  b.entries[1] = {"the shared library libm.so.6", "3"};
  CHECK(first_difference(a, b) == "the shared libraries differ (libc.so.6 against libm.so.6)");
  b = a;
  b.entries.insert(b.entries.begin() + 2, {"the shared library libextra.so", "4"});
  CHECK(first_difference(a, b) == "only the candidate loads libextra.so");
  b = a;
  b.entries[2].value = "text y";
  CHECK(first_difference(a, b) == "argument 1 differs");
}
