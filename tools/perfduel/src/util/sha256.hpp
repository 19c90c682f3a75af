#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "util/expected.hpp"

// SHA-256 from OpenSSL's libcrypto (EVP), fed piece by piece: a well-kept implementation, with
// the CPU's SHA extensions where it has them, rather than one of our own.
namespace perfduel::util {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  // Adds `bytes` to what is hashed.
  void update(std::string_view bytes);

  // The digest of everything added, as 64 lowercase hex digits; the object is done with then.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> m_context;
};

// The SHA-256 of `text`, in hex.
std::string sha256_hex(std::string_view text);

// The SHA-256 of the file `path`'s whole content, read in pieces, or "<path>: cannot read
// (<why>)".
Expected<std::string> sha256_of_file(const std::filesystem::path& path);

}  // namespace perfduel::util
