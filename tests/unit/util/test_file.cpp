#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "util/file.hpp"

using namespace perfduel::util;

namespace {

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TemporaryDirectory {
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "perfduel-file-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TemporaryDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  std::filesystem::path path;
};

std::string read_all(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

unsigned mode_of(const std::filesystem::path& path) {
  struct stat info {};
  ::lstat(path.c_str(), &info);
  return info.st_mode & 07777U;
}

}  // namespace

TEST_CASE("write_file_atomically replaces the file whole and leaves no temporary file", "[file]") {
  TemporaryDirectory directory;
  const auto path = directory.path / "report.json";
  REQUIRE(write_file_atomically(path, "first, and longer than the second\n").empty());
  REQUIRE(write_file_atomically(path, "second\n").empty());
  CHECK(read_all(path) == "second\n");
  CHECK(std::distance(std::filesystem::directory_iterator(directory.path), {}) == 1);
}

TEST_CASE("write_file_atomically creates files 0664 less the umask", "[file]") {
  TemporaryDirectory directory;
  const auto path = directory.path / "report.md";
  for (const auto& [umask, expected] : {std::pair{0022U, 0644U}, {0077U, 0600U}, {0000U, 0664U}}) {
    const mode_t previous = ::umask(umask);
    const auto error = write_file_atomically(path, "text\n");
    ::umask(previous);
    REQUIRE(error.empty());
    CHECK(mode_of(path) == expected);
  }
}

TEST_CASE("write_file_atomically replaces a symbolic link instead of writing through it", "[file]") {
  TemporaryDirectory directory;
  const auto target = directory.path / "elsewhere";
  const auto path = directory.path / "report.svg";
  std::filesystem::create_symlink(target, path);
  REQUIRE(write_file_atomically(path, "<svg/>\n").empty());
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK_FALSE(std::filesystem::is_symlink(path));
  CHECK(read_all(path) == "<svg/>\n");
}

TEST_CASE("write_file_atomically says why it cannot write", "[file]") {
  TemporaryDirectory directory;
  const auto path = directory.path / "missing" / "report.json";
  CHECK(write_file_atomically(path, "x").rfind("cannot create " + path.string() + ".tmp.", 0) == 0);
}

TEST_CASE("read_file reads a file whole, bytes and all", "[file]") {
  TemporaryDirectory directory;
  const auto path = directory.path / "report.json";
  std::string text("line\r\n\0zero\xff\n", 13);
  text.append(200000, 'x');
  REQUIRE(write_file_atomically(path, text).empty());
  const auto read = read_file(path);
  REQUIRE(read);
  CHECK(*read == text);
  REQUIRE(write_file_atomically(path, "").empty());
  CHECK(read_file(path).value().empty());
}

TEST_CASE("read_file reads a /proc file, which says it is empty", "[file]") {
  const auto read = read_file("/proc/self/status");
  REQUIRE(read);
  CHECK(read->find("VmHWM:") != std::string::npos);
}

TEST_CASE("read_file names the file and why it cannot read it", "[file]") {
  TemporaryDirectory directory;
  const auto missing = directory.path / "missing.json";
  CHECK(read_file(missing).error() == missing.string() + ": cannot read (No such file or directory)");
  CHECK(read_file(directory.path).error() == directory.path.string() + ": cannot read (Is a directory)");
}
