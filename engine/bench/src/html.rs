//! `--html FILE`: one self-contained page: the run's facts, the table, charts as inline SVG drawn
//! with plotters (ratio per scene and format, thread scaling, frame-time distribution) and the
//! pictures of modex and each peer side by side as PNG data URIs. No script, no outside resource:
//! the page opens from a file or an attachment as it is.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use crate::case::{Format, Size};
use crate::error::BenchError;
use crate::report::{CaseReport, Report};

/// Escape text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn chart_error(chart: &str) -> impl Fn(String) -> BenchError + '_ {
    move |message| BenchError::Chart {
        chart: chart.to_string(),
        message,
    }
}

/// Series colours: modex first, then the peers.
const COLOURS: [RGBColor; 5] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
];

/// One bar series: its name and a value per category (none: no bar).
struct Series {
    name: String,
    values: Vec<Option<f64>>,
}

/// A bar chart over named categories, the series' bars side by side in each, with a dashed
/// reference line at `reference` (a ratio of 1: as fast as the peer).
fn bars(
    title: &str,
    y_desc: &str,
    categories: &[String],
    series: &[Series],
    reference: Option<f64>,
) -> Result<String, BenchError> {
    let err = chart_error(title);
    let top = series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .copied()
        .chain(reference)
        .fold(0.0f64, f64::max)
        * 1.1;
    let top = if top.is_finite() && top > 0.0 {
        top
    } else {
        1.0
    };
    let n = categories.len().max(1);
    let width = (120 + 26 * n * series.len().max(1)).clamp(640, 1800) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(130)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)
            .map_err(|e| err(e.to_string()))?;
        // The category names are drawn below the axis by hand: plotters centres a rotated label
        // on its tick, which puts half of it inside the plot where the bars hide it.
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_label_formatter(&|_| String::new())
            .y_desc(y_desc)
            .draw()
            .map_err(|e| err(e.to_string()))?;
        let label_style = TextStyle::from(
            ("sans-serif", 12)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, name) in categories.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64, 0.0));
            root.draw(&Text::new(name.clone(), (x, y + 6), label_style.clone()))
                .map_err(|e| err(e.to_string()))?;
        }
        let k = series.len().max(1) as f64;
        let w = 0.8 / k;
        for (si, s) in series.iter().enumerate() {
            let colour = COLOURS[si % COLOURS.len()];
            let x0 = -0.4 + si as f64 * w;
            chart
                .draw_series(s.values.iter().enumerate().filter_map(|(i, v)| {
                    let v = (*v)?;
                    let l = i as f64 + x0;
                    Some(Rectangle::new(
                        [(l, 0.0), (l + w * 0.9, v)],
                        colour.filled(),
                    ))
                }))
                .map_err(|e| err(e.to_string()))?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        if let Some(r) = reference {
            chart
                .draw_series(DashedLineSeries::new(
                    [(-0.5, r), (n as f64 - 0.5, r)],
                    6,
                    4,
                    BLACK.stroke_width(1),
                ))
                .map_err(|e| err(e.to_string()))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(e.to_string()))?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    Ok(svg)
}

/// Horizontal boxes on a log scale: p10..p90 as the box, min..max as the whisker, the median as
/// a bar, one row per (label, deciles).
fn distribution(title: &str, rows: &[(String, usize, Vec<f64>)]) -> Result<String, BenchError> {
    let err = chart_error(title);
    let values = rows
        .iter()
        .flat_map(|r| r.2.iter().copied())
        .filter(|v| *v > 0.0);
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() && hi > 0.0 {
        (lo / 1.5, hi * 1.5)
    } else {
        (0.01, 1.0)
    };
    let n = rows.len().max(1);
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (900, (80 + 22 * n) as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(260)
            .build_cartesian_2d((lo..hi).log_scale(), -0.5f64..(n as f64 - 0.5))
            .map_err(|e| err(e.to_string()))?;
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let label = move |y: &f64| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_desc("ms per frame (log scale)")
            .draw()
            .map_err(|e| err(e.to_string()))?;
        for (i, (_, colour, d)) in rows.iter().enumerate() {
            if d.len() != 11 {
                continue;
            }
            let c = COLOURS[colour % COLOURS.len()];
            let y = i as f64;
            chart
                .draw_series([
                    PathElement::new([(d[0], y), (d[10], y)], c.stroke_width(1)),
                    PathElement::new([(d[5], y - 0.4), (d[5], y + 0.4)], BLACK.stroke_width(2)),
                ])
                .map_err(|e| err(e.to_string()))?;
            chart
                .draw_series([Rectangle::new(
                    [(d[1], y - 0.3), (d[9], y + 0.3)],
                    c.mix(0.6).filled(),
                )])
                .map_err(|e| err(e.to_string()))?;
        }
        root.present().map_err(|e| err(e.to_string()))?;
    }
    Ok(svg)
}

fn peers_of(r: &Report) -> Vec<String> {
    r.cases
        .iter()
        .flat_map(|c| c.peers.keys().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn label(c: &CaseReport) -> String {
    format!("{} {}", c.case.scene, c.case.format.label())
}

/// The ratio charts: per peer and size, a bar per scene and format and thread count.
fn ratio_charts(r: &Report, out: &mut String) -> Result<(), BenchError> {
    let threads: BTreeSet<usize> = r.cases.iter().map(|c| c.case.threads).collect();
    let sizes: BTreeSet<Size> = r.cases.iter().map(|c| c.case.size).collect();
    for peer in peers_of(r) {
        for &size in &sizes {
            let with: Vec<&CaseReport> = r
                .cases
                .iter()
                .filter(|c| c.case.size == size && c.peers.contains_key(&peer))
                .collect();
            if with.is_empty() {
                continue;
            }
            let mut cats: Vec<(String, Format)> = Vec::new();
            for c in &with {
                let k = (c.case.scene.clone(), c.case.format);
                if !cats.contains(&k) {
                    cats.push(k);
                }
            }
            let series: Vec<Series> = threads
                .iter()
                .map(|&t| Series {
                    name: format!("{t} thread{}", if t == 1 { "" } else { "s" }),
                    values: cats
                        .iter()
                        .map(|(s, f)| {
                            with.iter()
                                .find(|c| {
                                    &c.case.scene == s && c.case.format == *f && c.case.threads == t
                                })
                                .map(|c| c.peers[&peer].ratio)
                        })
                        .collect(),
                })
                .collect();
            let names: Vec<String> = cats
                .iter()
                .map(|(s, f)| format!("{s} {}", f.label()))
                .collect();
            out.push_str(&bars(
                &format!(
                    "{peer} ms / modex ms at {} (above 1: modex is faster)",
                    size.label()
                ),
                "ratio",
                &names,
                &series,
                Some(1.0),
            )?);
        }
    }
    Ok(())
}

/// The scaling charts: per size, the speed-up of the most threads over one, for modex and for
/// llvmpipe (its own `LP_NUM_THREADS` scaling).
fn scaling_charts(r: &Report, out: &mut String) -> Result<(), BenchError> {
    let threads: BTreeSet<usize> = r.cases.iter().map(|c| c.case.threads).collect();
    let (Some(&one), Some(&most)) = (threads.first(), threads.last()) else {
        return Ok(());
    };
    if one == most {
        out.push_str(
            "<p>One thread count only: no scaling chart (run with <code>--threads 1,2</code>).</p>",
        );
        return Ok(());
    }
    let sizes: BTreeSet<Size> = r.cases.iter().map(|c| c.case.size).collect();
    for &size in &sizes {
        let pairs: Vec<(&CaseReport, &CaseReport)> = r
            .cases
            .iter()
            .filter(|c| c.case.size == size && c.case.threads == one)
            .filter_map(|a| {
                let b = r.cases.iter().find(|b| {
                    b.case.threads == most
                        && b.case.scene == a.case.scene
                        && b.case.format == a.case.format
                        && b.case.size == size
                })?;
                Some((a, b))
            })
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let names: Vec<String> = pairs.iter().map(|(a, _)| label(a)).collect();
        let mut series = vec![Series {
            name: "modex".into(),
            values: pairs
                .iter()
                .map(|(a, b)| Some(a.modex_ms / b.modex_ms))
                .collect(),
        }];
        for peer in peers_of(r).into_iter().filter(|p| p == "llvmpipe") {
            series.push(Series {
                values: pairs
                    .iter()
                    .map(|(a, b)| Some(a.peers.get(&peer)?.ms / b.peers.get(&peer)?.ms))
                    .collect(),
                name: peer,
            });
        }
        out.push_str(&bars(
            &format!("speed-up of {most} threads over {one} at {}", size.label()),
            "1-thread ms / n-thread ms",
            &names,
            &series,
            Some(most as f64 / one as f64),
        )?);
    }
    Ok(())
}

/// The distribution chart: every case with pictures (one per scene), modex and each peer.
fn distribution_chart(r: &Report, out: &mut String) -> Result<(), BenchError> {
    let peers = peers_of(r);
    let mut rows = Vec::new();
    let shown: Vec<&CaseReport> = if r.pictures.is_empty() {
        let t = r.cases.iter().map(|c| c.case.threads).min().unwrap_or(1);
        let mut seen = BTreeSet::new();
        r.cases
            .iter()
            .filter(|c| c.case.threads == t && seen.insert(c.case.scene.clone()))
            .collect()
    } else {
        r.pictures.iter().filter_map(|p| r.case(&p.case)).collect()
    };
    for c in &shown {
        rows.push((format!("{} modex", c.case.id()), 0, c.deciles_ms.clone()));
        for (i, p) in peers.iter().enumerate() {
            if let Some(x) = c.peers.get(p) {
                rows.push((format!("{} {p}", c.case.id()), i + 1, x.deciles_ms.clone()));
            }
        }
    }
    if !rows.is_empty() {
        out.push_str(&distribution(
            "frame times: min..max, p10..p90 (box), median (bar)",
            &rows,
        )?);
    }
    Ok(())
}

fn table(r: &Report, out: &mut String) {
    let peers = peers_of(r);
    out.push_str("<table><tr><th>scene</th><th>format</th><th>size</th><th>threads</th><th>modex ms</th><th>p10..p90</th><th>Mpixels/s</th><th>Mtriangles/s</th>");
    for p in &peers {
        let _ = write!(out, "<th>{p} ms</th><th>ratio</th><th>picture</th>");
    }
    out.push_str("</tr>\n");
    for c in &r.cases {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}..{:.3}</td><td>{:.1}</td><td>{}</td>",
            esc(&c.case.scene),
            c.case.format.label(),
            c.case.size.label(),
            c.case.threads,
            c.modex_ms,
            c.p10_ms,
            c.p90_ms,
            c.mpixels_s,
            c.mtriangles_s.map_or("-".into(), crate::table::significant)
        );
        for p in &peers {
            match c.peers.get(p) {
                Some(x) => {
                    let _ = write!(
                        out,
                        "<td>{:.3}</td><td class=\"{}\">{:.2}</td><td class=\"{}\" title=\"covered {} / {} ({:.2} %), colour difference {:.2} / 255{}\">{}</td>",
                        x.ms,
                        if x.ratio >= 1.0 { "good" } else { "bad" },
                        x.ratio,
                        if x.same_picture { "good" } else { "bad" },
                        x.covered_modex,
                        x.covered_peer,
                        x.coverage_diff_pct,
                        x.colour_diff,
                        if x.format != c.case.format.label() {
                            format!("; the peer drew {}", x.format)
                        } else {
                            String::new()
                        },
                        if x.same_picture { "same" } else { "DIFFERENT" }
                    );
                }
                None => out.push_str("<td>-</td><td>-</td><td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// The report as one HTML page.
pub fn page(r: &Report) -> Result<String, BenchError> {
    let mut out = String::new();
    let m = &r.machine;
    let load = |l: Option<[f64; 3]>| {
        l.map_or("unknown".into(), |l| {
            format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])
        })
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>modex bench: {cpu}</title>\n<style>\nbody{{font-family:sans-serif;margin:2em;max-width:1800px}}table{{border-collapse:collapse;font-size:13px}}td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child{{text-align:left}}.good{{background:#e3f4e3}}.bad{{background:#f8dcdc}}figure{{display:inline-block;margin:0 1em 1em 0}}figure img{{display:block;border:1px solid #888;image-rendering:pixelated}}svg{{display:block;margin:1em 0}}\n</style></head><body>\n<h1>modex bench</h1>\n",
        cpu = esc(&m.cpu)
    );
    let _ = writeln!(
        out,
        "<p>{cpu}, {cores} cores ({features}), {mem}; {os}.<br>modex {ver} ({commit}, {build}, {rustc}).<br>Started {started}, {secs:.0} s, {per} s per case{quick}. Load average at start {ls}, at end {le}.</p>",
        cpu = esc(&m.cpu),
        cores = m.cores,
        features = esc(&m.features.join(", ")),
        mem = m.memory_mib.map_or("memory unknown".into(), |mib| format!("{} GiB", mib / 1024)),
        os = esc(&m.os),
        ver = esc(&r.modex.version),
        commit = esc(&r.modex.commit),
        build = esc(&r.modex.build),
        rustc = esc(&r.modex.rustc),
        started = esc(&r.run.started),
        secs = r.run.seconds,
        per = r.run.seconds_per_case,
        quick = if r.run.quick { " (--quick)" } else { "" },
        ls = load(m.load_start),
        le = load(m.load_end),
    );
    if r.mesa.is_empty() {
        out.push_str("<p>No peer: libOSMesa.so.8 was not found, modex ran alone.</p>\n");
    } else {
        out.push_str("<p>Peers (each in its own process, frames alternating with modex's): ");
        for (name, info) in &r.mesa {
            let _ = write!(
                out,
                "<b>{}</b>: {}, {}. ",
                esc(name),
                esc(&info.renderer),
                esc(&info.version)
            );
        }
        out.push_str("</p>\n");
    }
    if !r.run.notices.is_empty() {
        out.push_str("<ul>");
        for n in &r.run.notices {
            let _ = write!(out, "<li>{}</li>", esc(n));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("<h2>Ratio per scene and format</h2>\n");
    ratio_charts(r, &mut out)?;
    out.push_str("<h2>Thread scaling</h2>\n");
    scaling_charts(r, &mut out)?;
    out.push_str("<h2>Frame-time distribution</h2>\n");
    distribution_chart(r, &mut out)?;
    if !r.pictures.is_empty() {
        out.push_str("<h2>Pictures</h2>\n");
        for p in &r.pictures {
            let _ = write!(out, "<h3>{}</h3>\n<div>", esc(&p.case.id()));
            let _ = write!(
                out,
                "<figure><img alt=\"modex\" src=\"data:image/png;base64,{}\"><figcaption>modex</figcaption></figure>",
                p.modex
            );
            for (name, png) in &p.peers {
                let check =
                    r.case(&p.case)
                        .and_then(|c| c.peers.get(name))
                        .map_or(String::new(), |x| {
                            format!(
                                ": {} (covered {:.2} % apart, colour difference {:.2} / 255)",
                                if x.same_picture {
                                    "same picture"
                                } else {
                                    "DIFFERENT picture"
                                },
                                x.coverage_diff_pct,
                                x.colour_diff
                            )
                        });
                let _ = write!(
                    out,
                    "<figure><img alt=\"{n}\" src=\"data:image/png;base64,{png}\"><figcaption>{n}{check}</figcaption></figure>",
                    n = esc(name),
                    check = esc(&check)
                );
            }
            out.push_str("</div>\n");
        }
    }
    if let Some(b) = &r.baseline {
        let _ = write!(
            out,
            "<h2>Against {}</h2>\n<pre>{}</pre>\n",
            esc(&b.file),
            esc(&crate::baseline::table(b))
        );
    }
    out.push_str("<h2>Every case</h2>\n");
    table(r, &mut out);
    out.push_str("</body></html>\n");
    Ok(out)
}

/// Write the page to `path`.
pub fn write(r: &Report, path: &Path) -> Result<(), BenchError> {
    std::fs::write(path, page(r)?).map_err(|source| BenchError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every category name is drawn whole, below the plot: a rotated label starts under the
    /// x axis (its `y` is past the lowest bar's foot) instead of being centred on it.
    #[test]
    fn category_labels_sit_below_the_axis() {
        let categories: Vec<String> = ["fill 8", "overdraw4_b2f 8888"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let series = [Series {
            name: "modex".into(),
            values: vec![Some(2.0), Some(3.0)],
        }];
        let svg = bars("t", "ratio", &categories, &series, Some(1.0)).unwrap();
        // The axis line is the plot's lowest horizontal line; bars end on it.
        let rect_bottoms: Vec<f64> = svg
            .lines()
            .filter(|l| l.contains("<rect") && l.contains("fill=\"#1F77B4\""))
            .filter_map(|l| {
                let attr = |k: &str| -> Option<f64> {
                    let v = l.split(&format!(" {k}=\"")).nth(1)?.split('"').next()?;
                    v.parse().ok()
                };
                Some(attr("y")? + attr("height")?)
            })
            .collect();
        assert!(!rect_bottoms.is_empty(), "no bars in {svg}");
        let axis = rect_bottoms.iter().copied().fold(0.0, f64::max);
        let lines: Vec<&str> = svg.lines().collect();
        for name in &categories {
            // plotters writes `<text ...>`, the text, `</text>` on three lines.
            let at = lines
                .iter()
                .position(|l| l.trim() == name)
                .unwrap_or_else(|| panic!("label {name} missing"));
            let line = lines[at.saturating_sub(1)];
            let y: f64 = line
                .split(" y=\"")
                .nth(1)
                .and_then(|v| v.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no y in {line}"));
            assert!(y > axis, "label {name} at y {y}, axis at {axis}: {line}");
            assert!(line.contains("text-anchor=\"start\""), "{line}");
        }
    }
}
