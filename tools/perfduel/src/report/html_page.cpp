#include "report/html_page.hpp"

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "error.hpp"
#include "report/palette.hpp"
#include "util/html.hpp"

// Generated from src/report/html/ and Chart.js by cmake/EmbedAssets.cmake.
namespace perfduel::assets {
std::string_view chart_js();
std::string_view page_css();
std::string_view common_js();
std::string_view where_js();
std::string_view run_page_js();
std::string_view trend_page_js();
}  // namespace perfduel::assets

namespace perfduel {

const char* const k_page_security_policy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'";

namespace {

// Runs before anything else on the page: records each script error and each resource the
// policy refused into #perfduel-status (data-errors, and the messages as its text), where the
// browser test looks for them, and which the page shows when there are any.
constexpr std::string_view k_error_recorder = R"(
(function () {
  var errors = [];
  function record(text) {
    errors.push(text);
    var status = document.getElementById('perfduel-status');
    if (status) {
      status.dataset.errors = String(errors.length);
      status.textContent = 'This page failed: ' + errors.join('; ');
      status.hidden = false;
    }
  }
  window.perfduelErrors = errors;
  window.addEventListener('error', function (e) {
    if (e.target && e.target !== window && (e.target.src || e.target.href)) {
      record('failed to load ' + (e.target.src || e.target.href));
    } else {
      record('script error: ' + e.message + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
    }
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    record('script error: ' + e.reason);
  });
  document.addEventListener('securitypolicyviolation', function (e) {
    record('refused to load ' + (e.blockedURI || 'a resource') + ' (' + e.violatedDirective + ')');
  });
})();
)";

// The line of html/common.js that the palette replaces.
constexpr std::string_view k_palette_line =
    "PD.colours = {};  // perfduel: the palette, written here by report/html_page.cpp";

// html/common.js with the colours of report/palette.hpp, so that the pages' charts and the SVG
// plots cannot drift apart.
std::string common_script() {
  std::string script(assets::common_js());
  const auto at = script.find(k_palette_line);
  if (at == std::string::npos) {
    throw Error("html/common.js has no palette line to replace (report/html_page.cpp, k_palette_line)");
  }
  return script.replace(at, k_palette_line.size(), page_palette_script());
}

}  // namespace

std::string render_html_page(const HtmlPage& page) {
  const std::string data =
      html::script_safe_json(page.data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  // The run page draws where a regression happened with where.js, before its own script.
  const std::string script = page.kind == PageKind::run
                                 ? fmt::format("{}\n{}", assets::where_js(), assets::run_page_js())
                                 : std::string(assets::trend_page_js());
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"perfduel {}\">\n"
      "<title>{}</title>\n<script>{}</script>\n<style>\n{}</style>\n</head>\n"
      "<body data-page=\"{}\" data-state=\"loading\">\n"
      "<div id=\"perfduel-status\" class=\"status\" data-errors=\"0\" hidden></div>\n"
      "<noscript>This page draws its tables and charts with JavaScript; the JSON report holds the "
      "same numbers.</noscript>\n<main id=\"page\"></main>\n"
      "<script type=\"application/json\" id=\"perfduel-data\">{}</script>\n"
      "<script>\n{}\n</script>\n<script>\n{}\n{}\n</script>\n</body>\n</html>\n",
      k_page_security_policy, PERFDUEL_VERSION, html::escape(page.title), k_error_recorder,
      assets::page_css(), page.kind == PageKind::run ? "run" : "trend", data, assets::chart_js(),
      common_script(), script);
}

}  // namespace perfduel
