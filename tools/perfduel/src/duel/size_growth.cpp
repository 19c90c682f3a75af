#include "duel/size_growth.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfduel {

std::vector<SymbolGrowth> grown_symbols(const util::ElfSize& baseline, const util::ElfSize& candidate,
                                        std::size_t count) {
  std::vector<SymbolGrowth> grown;
  for (const auto& [name, bytes] : candidate.symbols) {
    const auto before = baseline.symbols.find(name);
    const std::uint64_t was = before == baseline.symbols.end() ? 0 : before->second;
    if (bytes > was) {
      grown.push_back({name, was, bytes});
    }
  }
  std::sort(grown.begin(), grown.end(), [](const SymbolGrowth& a, const SymbolGrowth& b) {
    return a.bytes() != b.bytes() ? a.bytes() > b.bytes() : a.name < b.name;
  });
  if (grown.size() > count) {
    grown.resize(count);
  }
  return grown;
}

std::string describe_growth(const std::vector<SymbolGrowth>& grown) {
  std::vector<std::string> parts;
  parts.reserve(grown.size());
  for (const auto& symbol : grown) {
    parts.push_back(
        fmt::format("{} (+{} B{})", symbol.name, symbol.bytes(), symbol.baseline == 0 ? ", new" : ""));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace perfduel
