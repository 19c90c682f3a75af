#include <string>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "report/html_page.hpp"
#include "report/html_run.hpp"
#include "util/html.hpp"

using namespace perfduel;

TEST_CASE("JSON in a script element cannot end it", "[html]") {
  const std::string json =
      nlohmann::json{{"name", "</script><script>alert(1)</script> <!-- & \u2028"}}.dump();
  const std::string safe = html::script_safe_json(json);
  CHECK(safe.find('<') == std::string::npos);
  CHECK(safe.find('>') == std::string::npos);
  CHECK(safe.find("\u2028") == std::string::npos);
  CHECK(safe.find("\\u003c/script\\u003e") != std::string::npos);
  // JSON.parse reads the same value back; so does nlohmann.
  CHECK(nlohmann::json::parse(safe) == nlohmann::json::parse(json));
}

TEST_CASE("HTML text is escaped", "[html]") {
  CHECK(html::escape("BM_Sort<int> & \"x\"") == "BM_Sort&lt;int&gt; &amp; &quot;x&quot;");
}

TEST_CASE("a page is self-contained: no URL to load, a strict policy, its data once", "[html]") {
  HtmlPage page;
  page.kind = PageKind::run;
  page.title = "perfduel: <gate>";
  page.data = {{"headline", "</script>"}, {"gates", nlohmann::json::array()}};
  const std::string text = render_html_page(page);
  CHECK(text.find(std::string("content=\"") + k_page_security_policy + "\"") != std::string::npos);
  CHECK(std::string(k_page_security_policy).find("default-src 'none'") == 0);
  CHECK(text.find("<title>perfduel: &lt;gate&gt;</title>") != std::string::npos);
  for (const char* loads : {"src=\"http", "href=\"http", "src=\"//", "href=\"//", "@import", "url(http"}) {
    INFO(loads);
    CHECK(text.find(loads) == std::string::npos);
  }
  // Chart.js is inline, and neither it nor the data ends a script element early: every
  // "</script" in the page closes one of the page's own five script elements.
  CHECK(text.find("Chart.js v3") != std::string::npos);
  std::size_t closes = 0;
  for (auto at = text.find("</script"); at != std::string::npos; at = text.find("</script", at + 1)) {
    ++closes;
  }
  CHECK(closes == 4);
  CHECK(text.find("<!--") == std::string::npos);
}

TEST_CASE("the run page's data of one duel: values by round, each round's change", "[html]") {
  const auto report = nlohmann::ordered_json::parse(R"({
    "verdict": "regression", "end": "regression-found", "elapsed_seconds": 1.5, "measured_rounds": 2,
    "baseline": {"command": ["a"]}, "candidate": {"command": ["b", "--x"]},
    "metrics": [{"name": "wall_time", "unit": "s", "gated": true, "change": 0.5, "ci": [0.4, 0.6],
                 "verdict": "regression", "threshold": 0.02, "tolerance": 0.01, "baseline_median": 0.002,
                 "candidate_median": 0.003}],
    "notes": ["a note"],
    "runs": [{"round": 0, "side": "baseline", "warmup": true, "values": {"wall_time": 0.004}},
             {"round": 0, "side": "candidate", "warmup": true, "values": {"wall_time": 0.004}},
             {"round": 1, "side": "candidate", "warmup": false, "values": {"wall_time": 0.003}},
             {"round": 1, "side": "baseline", "warmup": false, "values": {"wall_time": 0.002}},
             {"round": 2, "side": "baseline", "warmup": false, "values": {"wall_time": 0.002}}]})");
  const auto data = duel_page_data(report_from_json_lenient(report));
  CHECK(data["candidate"] == "b --x");
  CHECK(data["warmup"] == nlohmann::json::array({true, false, false}));
  const auto& metric = data["metrics"][0];
  CHECK(metric["baseline"] == nlohmann::json::array({0.004, 0.002, 0.002}));
  CHECK(metric["candidate"][2].is_null());  // an interrupted round
  CHECK(metric["per_round"][1].get<double>() == Approx(50.0));
  CHECK(metric["per_round"][2].is_null());
  CHECK(metric["shown_unit"] == "ms");
  CHECK(metric["baseline_median"] == "2.00 ms");
}
