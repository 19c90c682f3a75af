#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "util/expected.hpp"

// What the dynamic loader makes of an ELF file (a program or a shared library), read from its
// ELF header and program headers only.
namespace perfduel::util {

struct ElfImage {
  // PT_INTERP: the dynamic loader the kernel starts for this program; empty for a static
  // program and for a shared library.
  std::string interpreter;
  // SHA-256 (hex) of what the loader maps: the ELF header, the program headers and every
  // PT_LOAD segment's bytes, with two kinds of bytes blanked (zeroed) that the running program
  // never reads. The section-header fields of the ELF header (e_shoff, e_shentsize, e_shnum,
  // e_shstrndx) locate sections that are not mapped: debug information, symbol tables,
  // .comment. The GNU build-id note is a hash over the whole file, debug information included,
  // so it would carry differences of unmapped bytes (the directories in DWARF) into mapped ones.
  // Two builds of the same code at different paths, with debug information, hash alike; any
  // difference in code, data, relocations, dynamic section or layout shows.
  std::string sha256;
};

// The image of the ELF file `path`; nullopt when it is not an ELF file (a script: hash its
// content instead); an error ("<path>: ...") when it is one that cannot be read (truncated,
// malformed, unreadable).
Expected<std::optional<ElfImage>> read_elf_image(const std::filesystem::path& path);

}  // namespace perfduel::util
