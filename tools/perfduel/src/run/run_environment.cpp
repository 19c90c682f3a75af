#include "run/run_environment.hpp"

#include <string_view>

#include <fmt/format.h>

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace perfduel {

std::vector<std::string> run_environment(const std::map<std::string, std::string>& overrides,
                                         std::optional<std::size_t> padding_bytes) {
  constexpr std::string_view k_padding_name = "PERFDUEL_PAD";
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto name = text.substr(0, text.find('='));
    if (overrides.find(std::string(name)) == overrides.end() && !(padding_bytes && name == k_padding_name)) {
      environment.emplace_back(text);
    }
  }
  for (const auto& [name, value] : overrides) {
    environment.push_back(fmt::format("{}={}", name, value));
  }
  if (padding_bytes) {
    environment.push_back(fmt::format("{}={}", k_padding_name, std::string(*padding_bytes, 'x')));
  }
  return environment;
}

}  // namespace perfduel
