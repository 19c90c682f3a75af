// The code and data of an ELF file and its sized symbols (util/elf_size.hpp), read from real
// programs built for the purpose (tests/programs/size_app.cpp): the same program without and
// with a 4 KiB table.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "util/elf_size.hpp"

using namespace perfduel;
namespace fs = std::filesystem;

namespace {

const fs::path k_size_app = PERFDUEL_SIZE_APP;
const fs::path k_size_app_table = PERFDUEL_SIZE_APP_TABLE;

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct SizeDirectory {
  SizeDirectory() {
    std::string pattern = (fs::temp_directory_path() / "perfduel-size-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~SizeDirectory() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  SizeDirectory(const SizeDirectory&) = delete;
  SizeDirectory& operator=(const SizeDirectory&) = delete;
  fs::path path;
};

std::string file_bytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a program's code and data: a 4 KiB table adds 4 KiB and its symbol", "[elf_size]") {
  const auto plain = util::read_elf_size(k_size_app);
  const auto table = util::read_elf_size(k_size_app_table);
  REQUIRE(plain);
  REQUIRE(table);
  CHECK(plain->bytes > 0);
  CHECK(plain->symbols.count("main") == 1);
  CHECK(plain->symbols.count("size_app_table") == 0);
  REQUIRE(table->symbols.count("size_app_table") == 1);
  CHECK(table->symbols.at("size_app_table") == 4096);
  // The table, and at most the alignment and the few instructions that read it.
  CHECK(table->bytes >= plain->bytes + 4096);
  CHECK(table->bytes <= plain->bytes + 4096 + 256);
}

TEST_CASE("a program's size is the same at another path and with unmapped bytes added", "[elf_size]") {
  SizeDirectory directory;
  const auto copy = directory.path / "copy";
  std::ofstream(copy, std::ios::binary) << file_bytes(k_size_app) << std::string(4096, 'x');
  const auto original = util::read_elf_size(k_size_app);
  const auto longer = util::read_elf_size(copy);
  REQUIRE(original);
  REQUIRE(longer);
  CHECK(longer->bytes == original->bytes);
  CHECK(longer->symbols == original->symbols);
}

TEST_CASE("a file that is not a whole ELF file is an error naming it", "[elf_size]") {
  SizeDirectory directory;
  const auto script = directory.path / "run.sh";
  std::ofstream(script) << "#!/bin/sh\necho 1\n";
  const auto not_elf = util::read_elf_size(script);
  REQUIRE_FALSE(not_elf);
  CHECK(not_elf.error() == script.string() + ": not an ELF file (a script?)");

  const auto cut = directory.path / "cut";
  std::ofstream(cut, std::ios::binary) << file_bytes(k_size_app).substr(0, 100);
  const auto truncated = util::read_elf_size(cut);
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().rfind(cut.string() + ": truncated ELF file", 0) == 0);

  const auto missing = util::read_elf_size(directory.path / "missing");
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == (directory.path / "missing").string() + ": cannot read the file");
}
