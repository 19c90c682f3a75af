#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace perfduel::util {

// An enum's value names, as one array of {value, name} pairs that both writes and reads them:
// `constexpr NameTable<Colour, 2> k_colour_names{{{Colour::red, "red"}, {Colour::blue, "blue"}}};`
template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

// The name of `value` in `table` (empty if the table lacks it).
template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [entry, name] : table) {
    if (entry == value) {
      return name;
    }
  }
  return {};
}

// The value called `name` in `table`, or nothing.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [entry, entry_name] : table) {
    if (entry_name == name) {
      return entry;
    }
  }
  return std::nullopt;
}

// Every name in `table`, comma-separated, for "must be one of ..." messages.
template <typename Enum, std::size_t N>
std::string names_of(const NameTable<Enum, N>& table) {
  std::string list;
  for (const auto& [entry, name] : table) {
    list += list.empty() ? "" : ", ";
    list += name;
  }
  return list;
}

}  // namespace perfduel::util
