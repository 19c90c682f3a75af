#include "history/provenance.hpp"

#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>

#include <fmt/core.h>

#include "util/text.hpp"

namespace perfduel::history {

namespace {

// The first line of the standard output of `command` (a fixed string), or none when it fails.
std::optional<std::string> first_output_line(const char* command) {
  FILE* pipe = popen(command, "r");
  if (pipe == nullptr) {
    return std::nullopt;
  }
  std::string output;
  std::array<char, 256> buffer{};
  while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    output += buffer.data();
  }
  const int status = pclose(pipe);
  if (status != 0) {
    return std::nullopt;
  }
  const auto line = util::trim(std::string_view(output).substr(0, output.find('\n')));
  if (line.empty()) {
    return std::nullopt;
  }
  return std::string(line);
}

}  // namespace

bool is_iso_time(std::string_view text) {
  // YYYY-MM-DD, optionally followed by 'T' or ' ' and a time.
  if (text.size() < 10) {
    return false;
  }
  for (std::size_t i = 0; i < 10; ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? text[i] != '-' : std::isdigit(static_cast<unsigned char>(text[i])) == 0) {
      return false;
    }
  }
  return text.size() == 10 || ((text[10] == 'T' || text[10] == ' ') && text.size() >= 16);
}

std::optional<std::string> git_commit() {
  return first_output_line("git rev-parse HEAD 2>/dev/null");
}

std::optional<std::string> git_branch() {
  auto branch = first_output_line("git rev-parse --abbrev-ref HEAD 2>/dev/null");
  if (branch && *branch == "HEAD") {
    return std::nullopt;  // detached
  }
  return branch;
}

}  // namespace perfduel::history
