#include "util/json_file.hpp"

#include <array>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "error.hpp"
#include "util/file.hpp"

namespace perfduel::util {

void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& json) {
  // A benchmark's output need not be UTF-8 (a Latin-1 program), and it reaches the report in
  // error messages and excerpts: such bytes become U+FFFD rather than losing the report.
  const auto text = json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  if (const auto error = write_file_atomically(path, text); !error.empty()) {
    throw Error(fmt::format("{}: cannot write the report: {}", path.string(), error));
  }
}

std::string now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace perfduel::util
