#pragma once

#include <string>
#include <string_view>

// Small helpers for self-contained HTML pages: escaping text, and embedding JSON in a
// <script> element. They know nothing of benchmarks.
namespace perfduel::html {

// `text` made safe for element content and double-quoted attribute values: &, <, > and "
// become entities.
std::string escape(std::string_view text);

// The JSON text `json` made safe inside <script type="application/json">: '<', '>' and '&'
// become \u003c, \u003e and \u0026, so that neither "</script>" nor "<!--" can end or
// confuse the element (HTML's script data states), and U+2028 and U+2029 become \u2028 and
// \u2029. JSON.parse reads the same value back. `json` must be JSON text: the escapes are only
// valid inside its strings, and outside them these characters cannot occur.
std::string script_safe_json(std::string_view json);

}  // namespace perfduel::html
