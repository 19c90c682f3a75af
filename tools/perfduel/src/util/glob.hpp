#pragma once

#include <string_view>

namespace perfduel::util {

// Whether `pattern` has a wildcard (`*` or `?`) and so names a family of strings.
bool is_glob(std::string_view pattern);

// Whether `text` matches the shell-style `pattern`: `*` any run of characters (`/` included,
// unlike a path glob, since benchmark names such as BM_Sort/8 use it as a separator), `?` one
// character, everything else itself. No character classes or escapes: benchmark names often
// contain `[` and `\`, which must stay literal.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace perfduel::util
