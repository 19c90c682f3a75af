#include "util/elf_size.hpp"

#include <bit>
#include <cstring>
#include <memory>
#include <string_view>

#include <cxxabi.h>
#include <elf.h>
#include <fmt/format.h>

#include "util/file.hpp"

namespace perfduel::util {

namespace {

// A C++ symbol's demangled name; any other name as it is.
std::string demangled(const char* name) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                                         &std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

// The ELF types of one class (32 or 64 bits).
template <typename Header, typename SectionHeader, typename Symbol>
struct ElfClass {
  using Ehdr = Header;
  using Shdr = SectionHeader;
  using Sym = Symbol;
  static unsigned char type_of(const Sym& symbol) { return symbol.st_info & 0xf; }
};
using Elf64 = ElfClass<Elf64_Ehdr, Elf64_Shdr, Elf64_Sym>;
using Elf32 = ElfClass<Elf32_Ehdr, Elf32_Shdr, Elf32_Sym>;

// Reads the ELF file's bytes as structures of one class, checking every range.
template <typename Class>
class Reader {
 public:
  Reader(std::string_view bytes, std::string path) : m_bytes(bytes), m_path(std::move(path)) {}

  Expected<ElfSize> sizes() const {
    const auto header = at<typename Class::Ehdr>(0);
    if (!header) {
      return Expected<ElfSize>::failure(header.error());
    }
    std::vector<typename Class::Shdr> sections;
    for (std::uint64_t i = 0; i < header->e_shnum; ++i) {
      const auto section = at<typename Class::Shdr>(header->e_shoff + i * sizeof(typename Class::Shdr));
      if (!section) {
        return Expected<ElfSize>::failure(section.error());
      }
      sections.push_back(*section);
    }
    ElfSize size;
    const typename Class::Shdr* symtab = nullptr;
    const typename Class::Shdr* dynsym = nullptr;
    for (const auto& section : sections) {
      if ((section.sh_flags & SHF_ALLOC) != 0) {
        size.bytes += section.sh_size;
      }
      symtab = section.sh_type == SHT_SYMTAB ? &section : symtab;
      dynsym = section.sh_type == SHT_DYNSYM ? &section : dynsym;
    }
    const auto* symbols = symtab != nullptr ? symtab : dynsym;
    if (symbols != nullptr && symbols->sh_link < sections.size()) {
      if (auto read = read_symbols(*symbols, sections[symbols->sh_link], size.symbols); !read.empty()) {
        return Expected<ElfSize>::failure(read);
      }
    }
    return size;
  }

 private:
  template <typename T>
  Expected<T> at(std::uint64_t offset) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < sizeof(T)) {
      return Expected<T>::failure(
          fmt::format("{}: truncated ELF file (no {} bytes at {})", m_path, sizeof(T), offset));
    }
    T value;
    std::memcpy(&value, m_bytes.data() + offset, sizeof(T));
    return value;
  }

  // The sized symbols of `table` (names in `strings`) into `out`; an error message, or empty.
  std::string read_symbols(const typename Class::Shdr& table, const typename Class::Shdr& strings,
                           std::map<std::string, std::uint64_t>& out) const {
    if (strings.sh_offset > m_bytes.size() || m_bytes.size() - strings.sh_offset < strings.sh_size) {
      return fmt::format("{}: truncated ELF file (string table at {})", m_path, strings.sh_offset);
    }
    const std::string_view names = m_bytes.substr(strings.sh_offset, strings.sh_size);
    const std::uint64_t count = table.sh_size / sizeof(typename Class::Sym);
    for (std::uint64_t i = 0; i < count; ++i) {
      const auto symbol = at<typename Class::Sym>(table.sh_offset + i * sizeof(typename Class::Sym));
      if (!symbol) {
        return symbol.error();
      }
      const auto type = Class::type_of(*symbol);
      const bool sized = type == STT_FUNC || type == STT_OBJECT || type == STT_TLS;
      if (!sized || symbol->st_size == 0 || symbol->st_shndx == SHN_UNDEF ||
          symbol->st_name >= names.size()) {
        continue;
      }
      const auto end = names.find('\0', symbol->st_name);
      const std::string name(names.substr(symbol->st_name, end - symbol->st_name));
      out[demangled(name.c_str())] += symbol->st_size;
    }
    return {};
  }

  std::string_view m_bytes;
  std::string m_path;
};

}  // namespace

Expected<ElfSize> read_elf_size(const std::filesystem::path& path) {
  const auto bytes = read_file(path);
  if (!bytes) {
    return Expected<ElfSize>::failure(fmt::format("{}: cannot read the file", path.string()));
  }
  const std::string_view view(*bytes);
  if (view.size() < EI_NIDENT || view.substr(0, SELFMAG) != std::string_view(ELFMAG, SELFMAG)) {
    return Expected<ElfSize>::failure(fmt::format("{}: not an ELF file (a script?)", path.string()));
  }
  const bool little = view[EI_DATA] == ELFDATA2LSB;
  if (little != (std::endian::native == std::endian::little)) {
    return Expected<ElfSize>::failure(
        fmt::format("{}: an ELF file of the other byte order than this machine's", path.string()));
  }
  if (view[EI_CLASS] == ELFCLASS64) {
    return Reader<Elf64>(view, path.string()).sizes();
  }
  if (view[EI_CLASS] == ELFCLASS32) {
    return Reader<Elf32>(view, path.string()).sizes();
  }
  return Expected<ElfSize>::failure(fmt::format("{}: unknown ELF class", path.string()));
}

}  // namespace perfduel::util
