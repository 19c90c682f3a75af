#include <string>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "report/html_page.hpp"
#include "report/palette.hpp"

using namespace perfduel;

TEST_CASE("the pages' charts take their colours from the plots' palette", "[html]") {
  HtmlPage page;
  page.data = {{"gates", nlohmann::json::array()}};
  const std::string text = render_html_page(page);
  CHECK(text.find("PD.colours = {};") == std::string::npos);
  CHECK(text.find(page_palette_script()) != std::string::npos);
  CHECK(page_palette_script() ==
        "PD.colours = {\n  baseline: '#4477aa',\n  candidate: '#ee7733',\n  round: '#333333',\n"
        "  regression: '#cc3311',\n  improvement: '#228833',\n  progression: '#228833',\n"
        "  'no-change': '#555555',\n  normal: '#555555',\n  undecided: '#aa7700',\n};");
}
