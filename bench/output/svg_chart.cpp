#include "output/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "harness/file_utils.hpp"
#include "output/result_groups.hpp"
#include "output/text_table.hpp"

namespace bufstream::bench {
namespace {

// Geometry, in SVG user units (pixels).
constexpr double chart_width = 980;
constexpr double label_right = 250;  // variant labels end here
constexpr double bar_left = 260;
constexpr double bar_right = 800;  // the longest bar ends here; its value text follows
constexpr double row_height = 18;
constexpr double bar_height = 12;
constexpr double suite_gap = 34;
constexpr double group_gap = 24;

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_time(double ms) {
  if (ms >= 1000) return fmt::format("{:.2f} s", ms / 1000);
  if (ms >= 100) return fmt::format("{:.0f} ms", ms);
  if (ms >= 10) return fmt::format("{:.1f} ms", ms);
  return fmt::format("{:.2f} ms", ms);
}

std::string decade_label(int exponent) {
  if (exponent >= 3) return fmt::format("{} s", std::pow(10.0, exponent - 3));
  if (exponent >= 0) return fmt::format("{} ms", std::pow(10.0, exponent));
  return fmt::format("{} ms", std::pow(10.0, exponent));
}

const char* bar_colour(std::string_view variant) {
  if (variant == "unbuffered" || variant.ends_with("-unbuffered")) return "#d6604d";
  if (is_bufstream_variant(variant)) return "#2166ac";
  if (is_limit_variant(variant)) return "#bababa";
  return "#878787";
}

// One bar of the chart: what it shows and how it is labelled.
struct Bar {
  std::string variant;
  std::optional<double> ms;  // empty: not measured
  std::string value_label;
  bool failed = false;
};

struct Group {
  std::string suite;
  std::string title;
  std::vector<Bar> bars;
};

std::vector<Group> collect_groups(const Results& results, const Options& options) {
  std::vector<Group> groups;
  for (const std::string& suite : suites_in(results)) {
    for (const std::string& op : ops_in(results, suite)) {
      for (const std::string& data : data_in(results, suite)) {
        Group group{.suite = suite, .title = {}, .bars = {}};
        if (suite == "streams") {
          group.title = fmt::format("{} {} MB byte by byte", op, options.stream_mb);
        } else if (suite == "cedict") {
          group.title = op;
        } else if (suite == "json-files") {
          group.title = fmt::format("{} {}", op, data);
        } else if (suite == "json-small") {
          group.title = fmt::format("{} {}, each a document", op, data);
        } else if (suite == "json-select") {
          group.title =
              fmt::format("{} {} rows of {} in one document", op, group_digits(options.rows), data);
        } else if (suite == "json-lines") {
          group.title =
              fmt::format("{} {} rows of {} as JSON Lines", op, group_digits(options.rows), data);
        } else {
          group.title = fmt::format("{} {} rows of {}", op, group_digits(options.rows), data);
        }
        std::uint64_t largest = 0;
        for (const Entry& e : results.entries()) {
          if (e.suite == suite && e.op == op && e.data == data && e.measured)
            largest = std::max(largest, e.measured->bytes);
        }
        for (const std::string& variant : variants_in(results, suite, op)) {
          const Entry* e = find_entry(results, suite, op, data, variant);
          if (e == nullptr) continue;
          Bar bar{.variant = variant, .ms = std::nullopt, .value_label = {}, .failed = e->failed};
          if (e->measured) {
            const Measurement& m = *e->measured;
            double ms = m.timing.median_ms;
            bar.value_label = format_time(ms);
            // The streams suite's unbuffered variants move less; show them in the same unit.
            if (suite == "streams" && m.bytes != 0 && m.bytes < largest) {
              ms *= static_cast<double>(largest) / static_cast<double>(m.bytes);
              bar.value_label =
                  fmt::format("{} (scaled from {} MB)", format_time(ms), m.bytes >> 20);
            }
            bar.ms = ms;
          } else {
            bar.value_label = e->failed ? "FAILED" : "skipped: " + e->reason;
          }
          group.bars.push_back(std::move(bar));
        }
        if (!group.bars.empty()) groups.push_back(std::move(group));
      }
    }
  }
  return groups;
}

}  // namespace

std::string render_svg_chart(const Results& results, const Options& options,
                             const MachineInfo& machine) {
  const std::vector<Group> groups = collect_groups(results, options);

  // A common log axis over every measured bar, whole decades.
  double lo = 1, hi = 10;
  bool any = false;
  for (const Group& g : groups) {
    for (const Bar& b : g.bars) {
      if (!b.ms || *b.ms <= 0) continue;
      lo = any ? std::min(lo, *b.ms) : *b.ms;
      hi = any ? std::max(hi, *b.ms) : *b.ms;
      any = true;
    }
  }
  const int first_decade = static_cast<int>(std::floor(std::log10(lo)));
  const int last_decade = std::max(first_decade + 1, static_cast<int>(std::ceil(std::log10(hi))));
  auto x_of = [&](double ms) {
    const double t = (std::log10(ms) - first_decade) / (last_decade - first_decade);
    return bar_left + std::clamp(t, 0.0, 1.0) * (bar_right - bar_left);
  };

  // Height: title and axis, then each suite's heading and each group's rows.
  double height = 100;
  std::string previous_suite;
  for (const Group& g : groups) {
    if (g.suite != previous_suite) height += suite_gap;
    previous_suite = g.suite;
    height += group_gap + row_height * static_cast<double>(g.bars.size());
  }
  height += 40;

  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="20" y="26" font-size="17" font-weight="bold">bufstream-bench: median time per variant</text>
<text x="20" y="45" fill="#555">log scale, shorter is faster; {2} ({3} cores), {4}, {5} build</text>
<g font-size="11"><rect x="20" y="56" width="12" height="10" fill="#2166ac"/><text x="36" y="65">bufstream buffered</text><rect x="160" y="56" width="12" height="10" fill="#d6604d"/><text x="176" y="65">bufstream unbuffered</text><rect x="310" y="56" width="12" height="10" fill="#878787"/><text x="326" y="65">other libraries</text><rect x="430" y="56" width="12" height="10" fill="#bababa"/><text x="446" y="65">limits (one write/read, line scan)</text></g>
)",
      chart_width, height, escape(machine.cpu_model), machine.cores, escape(machine.compiler),
      escape(machine.build_type));

  const double axis_top = 82;
  const double axis_bottom = height - 30;
  for (int d = first_decade; d <= last_decade; ++d) {
    const double x = x_of(std::pow(10.0, d));
    svg += fmt::format(
        R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#e0e0e0"/>)"
        R"(<text x="{0:.1f}" y="{3}" text-anchor="middle" fill="#555" font-size="11">{4}</text>)"
        R"(<text x="{0:.1f}" y="{5}" text-anchor="middle" fill="#555" font-size="11">{4}</text>)"
        "\n",
        x, axis_top, axis_bottom, axis_top - 4, decade_label(d), axis_bottom + 14);
  }

  double y = axis_top + 6;
  previous_suite.clear();
  for (const Group& g : groups) {
    if (g.suite != previous_suite) {
      y += suite_gap;
      svg += fmt::format(R"(<text x="20" y="{:.1f}" font-size="15" font-weight="bold">{}</text>)"
                         "\n",
                         y - 8, escape(g.suite));
      previous_suite = g.suite;
    }
    y += group_gap;
    svg += fmt::format(R"(<text x="40" y="{:.1f}" font-weight="bold" fill="#333">{}</text>)"
                       "\n",
                       y - 6, escape(g.title));
    for (const Bar& b : g.bars) {
      const double text_y = y + bar_height - 2;
      svg += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">{}</text>)", label_right,
                         text_y, escape(b.variant));
      if (b.ms && *b.ms > 0) {
        const double end = std::max(x_of(*b.ms), bar_left + 2);
        svg += fmt::format(R"(<rect x="{}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"/>)",
                           bar_left, y, end - bar_left, bar_height, bar_colour(b.variant));
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" fill="#333">{}</text>)", end + 5, text_y,
                           escape(b.value_label));
      } else {
        svg +=
            fmt::format(R"(<text x="{}" y="{:.1f}" fill="{}" font-style="italic">{}</text>)",
                        bar_left + 4, text_y, b.failed ? "#b2182b" : "#999", escape(b.value_label));
      }
      svg += '\n';
      y += row_height;
    }
  }
  svg += "</svg>\n";
  return svg;
}

void write_svg_chart(const std::filesystem::path& path, const Results& results,
                     const Options& options, const MachineInfo& machine) {
  write_file(path, render_svg_chart(results, options, machine));
}

}  // namespace bufstream::bench
