// A small program whose size is known in one symbol: built as size_app, and as size_app_table
// with SIZE_APP_TABLE, which adds `size_app_table`, a 4 KiB table of constants the program
// reads (so the linker keeps it). For the binary_size metric (util/elf_size.hpp) in the unit
// tests and tests/cli.
#include <cstdio>

#ifdef SIZE_APP_TABLE
namespace {
constexpr unsigned k_entries = 1024;
constexpr auto make_table() {
  struct Table {
    unsigned values[k_entries];
  } table{};
  for (unsigned i = 0; i < k_entries; ++i) {
    table.values[i] = i * 2654435761U;
  }
  return table;
}
}  // namespace
// Not static: the symbol keeps its name in the symbol table.
extern const decltype(make_table()) size_app_table;
const decltype(make_table()) size_app_table = make_table();
#endif

int main(int argc, char** argv) {
  unsigned value = static_cast<unsigned>(argc);
#ifdef SIZE_APP_TABLE
  value += size_app_table.values[static_cast<unsigned>(argc) % k_entries];
#endif
  std::printf("%s: %u\n", argv[0], value);
  return 0;
}
