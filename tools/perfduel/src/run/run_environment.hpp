#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The environment a run starts with.
namespace perfduel {

// The inherited environment with the command's `overrides`, and PERFDUEL_PAD of
// `padding_bytes` characters when given (see Config::env_padding), as NAME=value entries.
std::vector<std::string> run_environment(const std::map<std::string, std::string>& overrides,
                                         std::optional<std::size_t> padding_bytes);

}  // namespace perfduel
