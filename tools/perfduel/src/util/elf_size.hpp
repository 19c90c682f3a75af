#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "util/expected.hpp"

// How big an ELF file's code and data are, and which symbols make them up, read from its section
// headers and symbol table.
namespace perfduel::util {

struct ElfSize {
  // The bytes of every section the loader allocates (SHF_ALLOC: code, read-only data, data,
  // .bss, the dynamic linking tables), as `size -A` adds them up without the unallocated ones:
  // debug information, the symbol table and comments move neither the program's footprint
  // nor this number, so a build with -g and a stripped one of the same code read alike.
  std::uint64_t bytes = 0;
  // The size of each sized function and object symbol (STT_FUNC, STT_OBJECT, STT_TLS) by its
  // demangled name, from .symtab, or from .dynsym when the file is stripped; a name defined
  // more than once (static functions of several files) adds up.
  std::map<std::string, std::uint64_t> symbols;
};

// The sizes of the ELF file `path`: an error ("<path>: ...") when it cannot be read or is not
// an ELF file of this machine's byte order.
Expected<ElfSize> read_elf_size(const std::filesystem::path& path);

}  // namespace perfduel::util
