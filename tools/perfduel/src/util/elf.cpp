#include "util/elf.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "util/sha256.hpp"

namespace perfduel::util {

namespace {

// ELF constants (elf(5)); spelled out rather than taken from <elf.h> so that the layout of both
// classes reads in one place.
constexpr std::uint32_t k_pt_load = 1;
constexpr std::uint32_t k_pt_interp = 3;
constexpr std::uint32_t k_pt_note = 4;
constexpr std::uint32_t k_nt_gnu_build_id = 3;
constexpr std::uint16_t k_pn_xnum = 0xffff;  // e_phnum: the real count is elsewhere (not supported)
// A program header table or an interpreter path beyond these is not one a loader would take.
constexpr std::uint64_t k_max_program_headers_bytes = 1 << 20;
constexpr std::uint64_t k_max_note_bytes = 1 << 20;
constexpr std::uint64_t k_max_interpreter_bytes = 4096;
// How much of a segment is read at a time.
constexpr std::uint64_t k_piece_bytes = 1 << 20;

// A byte range of the file: [offset, offset + length).
struct Range {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

// Where the fields of the ELF header and of a program header are in one class (32 or 64 bits).
struct Layout {
  bool wide = true;  // ELFCLASS64
  std::uint64_t header_size = 64;
  std::uint64_t phoff_at = 0x20;
  std::uint64_t phentsize_at = 0x36;
  std::uint64_t phnum_at = 0x38;
  Range section_fields_1{0x28, 8};  // e_shoff
  Range section_fields_2{0x3a, 6};  // e_shentsize, e_shnum, e_shstrndx
  std::uint64_t program_header_size = 56;
};

constexpr Layout k_elf64{};
constexpr Layout k_elf32{false, 52, 0x1c, 0x2a, 0x2c, {0x20, 4}, {0x2e, 6}, 32};

// One program header, in either class.
struct ProgramHeader {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t file_size = 0;
};

// The file, open for reading by offset.
class File {
 public:
  explicit File(const std::filesystem::path& path)
      : m_path(path), m_fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~File() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  bool is_open() const { return m_fd >= 0; }

  // `range` of the file, or an error naming the file when it is shorter or unreadable.
  Expected<std::string> read(Range range) const {
    std::string bytes(range.length, '\0');
    std::uint64_t done = 0;
    while (done < range.length) {
      const auto got =
          ::pread(m_fd, bytes.data() + done, range.length - done, static_cast<off_t>(range.offset + done));
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got < 0) {
        return Expected<std::string>::failure(
            fmt::format("{}: cannot read ({})", m_path.string(), std::strerror(errno)));
      }
      if (got == 0) {
        return Expected<std::string>::failure(fmt::format("{}: truncated ELF file (bytes {}-{} are missing)",
                                                          m_path.string(), range.offset + done,
                                                          range.offset + range.length));
      }
      done += static_cast<std::uint64_t>(got);
    }
    return bytes;
  }

 private:
  std::filesystem::path m_path;
  int m_fd;
};

// Reads unsigned integers of the file's byte order from its bytes.
class Decoder {
 public:
  explicit Decoder(bool big_endian) : m_big_endian(big_endian) {}

  std::uint64_t number(std::string_view bytes, std::uint64_t at, std::size_t size) const {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < size; ++i) {
      const auto byte = static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i]));
      value |= byte << (8 * (m_big_endian ? size - 1 - i : i));
    }
    return value;
  }

  // A program header at `at` of `bytes` in the class `layout`.
  ProgramHeader program_header(std::string_view bytes, std::uint64_t at, const Layout& layout) const {
    ProgramHeader header;
    header.type = static_cast<std::uint32_t>(number(bytes, at, 4));
    if (layout.wide) {
      header.offset = number(bytes, at + 8, 8);
      header.file_size = number(bytes, at + 32, 8);
    } else {
      header.offset = number(bytes, at + 4, 4);
      header.file_size = number(bytes, at + 16, 4);
    }
    return header;
  }

 private:
  bool m_big_endian;
};

// The desc ranges of the GNU build-id notes in the note segment `note` (bytes `bytes`, at file
// offset `note.offset`): each note is namesz, descsz, type (4 bytes each), then the name and the
// desc, each padded to 4 bytes.
std::vector<Range> build_id_ranges(std::string_view bytes, Range note, const Decoder& decode) {
  std::vector<Range> ranges;
  const auto padded = [](std::uint64_t n) { return (n + 3) & ~std::uint64_t{3}; };
  std::uint64_t at = 0;
  while (at + 12 <= bytes.size()) {
    const std::uint64_t name_size = decode.number(bytes, at, 4);
    const std::uint64_t desc_size = decode.number(bytes, at + 4, 4);
    const std::uint64_t type = decode.number(bytes, at + 8, 4);
    const std::uint64_t desc_at = at + 12 + padded(name_size);
    if (desc_at + desc_size > bytes.size()) {
      break;  // a malformed note: nothing more to find
    }
    if (type == k_nt_gnu_build_id && name_size == 4 &&
        bytes.substr(at + 12, 4) == std::string_view("GNU\0", 4)) {
      ranges.push_back({note.offset + desc_at, desc_size});
    }
    at = desc_at + padded(desc_size);
  }
  return ranges;
}

// `bytes`, which start at file offset `start`, with every byte inside one of `blanked` zeroed.
std::string blank(std::string bytes, std::uint64_t start, const std::vector<Range>& blanked) {
  for (const Range& range : blanked) {
    const std::uint64_t from = std::max(range.offset, start);
    const std::uint64_t to = std::min(range.offset + range.length, start + bytes.size());
    if (from < to) {
      std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(from - start),
                bytes.begin() + static_cast<std::ptrdiff_t>(to - start), '\0');
    }
  }
  return bytes;
}

// What read_elf_image found in the program headers: the ranges to hash, the ones to blank, the
// interpreter's range.
struct Segments {
  std::vector<Range> loaded;
  std::vector<Range> blanked;
  std::optional<Range> interpreter;
};

Expected<Segments> read_segments(const File& file, std::string_view header, const Layout& layout,
                                 const Decoder& decode, std::string& table) {
  using Result = Expected<Segments>;
  const std::uint64_t phoff = decode.number(header, layout.phoff_at, layout.wide ? 8 : 4);
  const std::uint64_t entry_size = decode.number(header, layout.phentsize_at, 2);
  const std::uint64_t count = decode.number(header, layout.phnum_at, 2);
  if (count == k_pn_xnum || entry_size < layout.program_header_size ||
      entry_size * count > k_max_program_headers_bytes) {
    return Result::failure("unsupported program header table");
  }
  auto read_table = file.read({phoff, entry_size * count});
  if (!read_table) {
    return Result::failure(read_table.error());
  }
  table = std::move(read_table).value();
  Segments segments;
  segments.blanked = {layout.section_fields_1, layout.section_fields_2};
  for (std::uint64_t i = 0; i < count; ++i) {
    const ProgramHeader segment = decode.program_header(table, i * entry_size, layout);
    const Range range{segment.offset, segment.file_size};
    if (segment.type == k_pt_load) {
      segments.loaded.push_back(range);
    } else if (segment.type == k_pt_interp && segment.file_size <= k_max_interpreter_bytes) {
      segments.interpreter = range;
    } else if (segment.type == k_pt_note && segment.file_size <= k_max_note_bytes) {
      auto notes = file.read(range);
      if (!notes) {
        return Result::failure(notes.error());
      }
      for (const Range& build_id : build_id_ranges(*notes, range, decode)) {
        segments.blanked.push_back(build_id);
      }
    }
  }
  return segments;
}

// The image of an ELF file whose first bytes, `ident`, say it is one.
Expected<ElfImage> read_image(const File& file, std::string_view ident) {
  using Result = Expected<ElfImage>;
  if (ident[4] != 1 && ident[4] != 2) {
    return Result::failure("unknown ELF class");
  }
  const Layout& layout = ident[4] == 2 ? k_elf64 : k_elf32;
  const Decoder decode(ident[5] == 2);
  auto header = file.read({0, layout.header_size});
  if (!header) {
    return Result::failure(header.error());
  }
  std::string table;
  auto segments = read_segments(file, *header, layout, decode, table);
  if (!segments) {
    return Result::failure(segments.error());
  }
  ElfImage image;
  if (segments->interpreter) {
    auto interpreter = file.read(*segments->interpreter);
    if (!interpreter) {
      return Result::failure(interpreter.error());
    }
    image.interpreter = interpreter->substr(0, interpreter->find('\0'));
  }
  Sha256 hash;
  hash.update(blank(std::move(header).value(), 0, segments->blanked));
  hash.update(table);
  for (const Range& segment : segments->loaded) {
    hash.update(fmt::format("PT_LOAD {} {}\n", segment.offset, segment.length));
    // In pieces: a program's text can be hundreds of MiB.
    for (std::uint64_t done = 0; done < segment.length; done += k_piece_bytes) {
      const Range piece{segment.offset + done, std::min(k_piece_bytes, segment.length - done)};
      auto bytes = file.read(piece);
      if (!bytes) {
        return Result::failure(bytes.error());
      }
      hash.update(blank(std::move(bytes).value(), piece.offset, segments->blanked));
    }
  }
  image.sha256 = hash.hex_digest();
  return image;
}

}  // namespace

Expected<std::optional<ElfImage>> read_elf_image(const std::filesystem::path& path) {
  using Result = Expected<std::optional<ElfImage>>;
  const File file(path);
  if (!file.is_open()) {
    return Result::failure(fmt::format("{}: cannot read ({})", path.string(), std::strerror(errno)));
  }
  // The magic number, the class and the byte order.
  auto first = file.read({0, 6});
  if (!first || first->compare(0, 4,
                               std::string_view("\x7f"
                                                "ELF",
                                                4)) != 0) {
    return std::optional<ElfImage>();  // shorter than an ELF header, or another kind of file
  }
  auto image = read_image(file, *first);
  if (!image) {
    return Result::failure(image.error().rfind(path.string(), 0) == 0
                               ? image.error()
                               : fmt::format("{}: {}", path.string(), image.error()));
  }
  return std::optional<ElfImage>(std::move(image).value());
}

}  // namespace perfduel::util
