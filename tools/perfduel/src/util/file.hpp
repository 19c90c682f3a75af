#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace perfduel::util {

// Mode of every file perfduel creates, before the umask: read-write for the owner and group,
// never writable by others, whatever the umask (022 gives 0644, 077 gives 0600).
constexpr unsigned k_created_file_mode = 0664;

// Writes `text` to `path` whole or not at all: into a new file beside it (never an existing
// one, nor through a symbolic link planted there), then renamed over `path`. A reader sees the
// old file or the new one, never half of one, and a killed writer leaves at most that
// temporary file, "<path>.tmp.<pid>". Returns why it failed, empty on success.
std::string write_file_atomically(const std::filesystem::path& path, std::string_view text);

// Reads the file `path` to its end, handing each piece read to `chunk` in order; returns
// "<path>: cannot read (<why>)", or empty on success.
std::string read_file_chunks(const std::filesystem::path& path,
                             const std::function<void(std::string_view)>& chunk);

// The whole text of the file `path`, read to its end (a /proc file says it is empty until
// read), or "<path>: cannot read (<why>)": the one place perfduel reads a file whole.
Expected<std::string> read_file(const std::filesystem::path& path);

// A directory of this process's own under the system's temporary directory, named
// `<prefix>-XXXXXX`, removed with what it holds when this goes. path() is empty when it could
// not be created.
class PrivateDirectory {
 public:
  explicit PrivateDirectory(std::string_view prefix);
  ~PrivateDirectory();
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;

  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace perfduel::util
