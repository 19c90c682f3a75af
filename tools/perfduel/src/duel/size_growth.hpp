#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/elf_size.hpp"

// The "where" of a binary's size: which symbols grew between the two sides' executables. Pure:
// two ElfSize in (util/elf_size.hpp), the symbols whose size changed most out.
namespace perfduel {

// One symbol's change of size between the two sides.
struct SymbolGrowth {
  std::string name;             // demangled
  std::uint64_t baseline = 0;   // its bytes; 0 when the baseline has no such symbol
  std::uint64_t candidate = 0;  // 0 when the candidate has none
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(candidate) - static_cast<std::int64_t>(baseline);
  }
};

// How many symbols a binary size's "where" names.
inline constexpr std::size_t k_size_symbols = 5;

// The symbols of `baseline` and `candidate` whose size grew, most first (ties by name), at most
// `count`.
std::vector<SymbolGrowth> grown_symbols(const util::ElfSize& baseline, const util::ElfSize& candidate,
                                        std::size_t count = k_size_symbols);

// One line naming `grown`: "big_table (+4,096 B, new), f(int) (+32 B)".
std::string describe_growth(const std::vector<SymbolGrowth>& grown);

}  // namespace perfduel
