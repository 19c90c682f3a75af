#pragma once

#include <array>
#include <optional>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "util/elf_size.hpp"

// The binary_size metric's readings: each side's program read once, before the first round
// (a file does not change between rounds), and which symbols grew when the size regressed.
namespace perfduel {

class ProgramSizes {
 public:
  // Reads both programs of `config` when one of its metrics is binary_size; nothing otherwise.
  // Throws perfduel::Error (benchmark_failed) naming the metric and the file when a program
  // cannot be found or read as ELF, and (usage) when a command is run through the shell.
  explicit ProgramSizes(const Config& config);

  // The code and data bytes of `side`'s program; 0 when no binary_size metric is configured.
  double bytes(Side side) const;

  // Appends to `notes` a key note per binary_size metric of `analysis` that regressed (or likely
  // did), naming the symbols that grew most: "binary_size: +4096 B: grew most: big_table (+4096
  // B, new)".
  void note_growth(const Analysis& analysis, std::vector<Note>& notes) const;

 private:
  std::array<std::optional<util::ElfSize>, 2> m_sizes;  // baseline, candidate
};

}  // namespace perfduel
