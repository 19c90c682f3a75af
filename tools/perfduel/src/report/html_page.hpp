#pragma once

#include <string>

#include <nlohmann/json.hpp>

// The document around perfduel's HTML pages: one self-contained file that needs no network
// when opened. Its style, Chart.js (Debian's libjs-chart.js, compiled in) and the page's script
// are inline; the page's data is JSON in a <script type="application/json"> element, which the
// script reads and draws. A Content-Security-Policy allows nothing but the inline script and
// style and data: images, so that nothing is fetched; a resource the page would load anyway is
// refused and recorded, like a script error, in the page's "perfduel-status" element, which the
// browser test reads.
namespace perfduel {

// Which script draws the page, and so what `data` must hold: html_run.hpp, html_trend.hpp.
enum class PageKind { run, trend };

struct HtmlPage {
  PageKind kind = PageKind::run;
  std::string title;    // the window's title
  nlohmann::json data;  // what the page's script draws
};

// The whole HTML document of `page`.
std::string render_html_page(const HtmlPage& page);

// The document's Content-Security-Policy, the value of its <meta http-equiv> element.
extern const char* const k_page_security_policy;

}  // namespace perfduel
