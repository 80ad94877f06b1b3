package dev.zerolayer.bench.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as plain SVG: named series (NaN breaks a line), linear or log axes with ticks, shaded bands
 * with labels (fault windows), a legend and a title.
 */
public final class SvgChart {

    /** One line: name, colour, points, solid or dashed. */
    public record Series(String name, String colour, double[] x, double[] y, boolean dashed) {
        public Series(String name, String colour, double[] x, double[] y) {
            this(name, colour, x, y, false);
        }
    }

    /** A shaded x-range with a label. */
    public record Band(double from, double to, String label) {
    }

    private static final int WIDTH = 960;
    private static final int HEIGHT = 540;
    private static final int LEFT = 80;
    private static final int RIGHT = 200;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();
    private final List<Band> bands = new ArrayList<>();
    private double xMin = Double.NaN;
    private double xMax = Double.NaN;
    private double yMin = Double.NaN;
    private double yMax = Double.NaN;

    public SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    public SvgChart add(Series line) {
        series.add(line);
        return this;
    }

    public SvgChart band(Band band) {
        bands.add(band);
        return this;
    }

    public SvgChart xRange(double min, double max) {
        xMin = min;
        xMax = max;
        return this;
    }

    public SvgChart yRange(double min, double max) {
        yMin = min;
        yMax = max;
        return this;
    }

    public String render() {
        double[] xr = range(true);
        double[] yr = range(false);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH,
                HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(title)));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        int bandIndex = 0;
        for (Band band : bands) {
            double x0 = px(band.from(), xr, plotW);
            double x1 = px(band.to(), xr, plotW);
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4a261\" fill-opacity=\"0.25\"/>%n",
                    x0, TOP, Math.max(1.5, x1 - x0), plotH));
            svg.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#9c4a00\">%s</text>%n", x0 + 2,
                    TOP + 12 + 12 * (bandIndex++ % 3), escape(band.label())));
        }
        for (double tick : ticks(xr, logX)) {
            double x = px(tick, xr, plotW);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    x, TOP, x, TOP + plotH));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                    TOP + plotH + 16, label(tick)));
        }
        for (double tick : ticks(yr, logY)) {
            double y = py(tick, yr, plotH);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, y, LEFT + plotW, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 6, y + 4, label(tick)));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#333\"/>%n", LEFT, TOP, plotW, plotH));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 18, escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(20,%d) rotate(-90)\" "
                + "text-anchor=\"middle\">%s</text>%n", TOP + plotH / 2, escape(yLabel)));
        for (Series line : series) {
            StringBuilder path = new StringBuilder();
            boolean pen = false;
            for (int i = 0; i < line.x().length; i++) {
                double xv = line.x()[i];
                double yv = line.y()[i];
                if (!usable(xv, logX) || !usable(yv, logY)) {
                    pen = false;
                    continue;
                }
                path.append(String.format(Locale.ROOT, "%s%.1f,%.1f ", pen ? "L" : "M", px(xv, xr, plotW),
                        py(Math.min(Math.max(yv, yr[0]), yr[1]), yr, plotH)));
                pen = true;
            }
            if (path.length() == 0) {
                continue;
            }
            svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s/>%n",
                    path.toString().trim(), line.colour(), line.dashed() ? " stroke-dasharray=\"6,4\"" : ""));
        }
        int legendY = TOP + 10;
        for (Series line : series) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"3\"%s/>%n", LEFT + plotW + 15, legendY, LEFT + plotW + 40, legendY, line.colour(),
                    line.dashed() ? " stroke-dasharray=\"6,4\"" : ""));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + plotW + 46,
                    legendY + 4, escape(line.name())));
            legendY += 20;
        }
        if (!bands.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"25\" height=\"10\" fill=\"#f4a261\" "
                    + "fill-opacity=\"0.25\"/>%n", LEFT + plotW + 15, legendY - 5));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">fault window</text>%n", LEFT + plotW + 46,
                    legendY + 4));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private double[] range(boolean x) {
        double min = x ? xMin : yMin;
        double max = x ? xMax : yMax;
        boolean log = x ? logX : logY;
        if (Double.isNaN(min) || Double.isNaN(max)) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (Series line : series) {
                for (double v : x ? line.x() : line.y()) {
                    if (usable(v, log)) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                }
            }
            if (lo > hi) {
                lo = log ? 0.01 : 0;
                hi = log ? 1 : 1;
            }
            min = Double.isNaN(min) ? lo : min;
            max = Double.isNaN(max) ? hi : max;
        }
        if (log) {
            min = Math.pow(10, Math.floor(Math.log10(min)));
            max = Math.pow(10, Math.ceil(Math.log10(max)));
        }
        if (max <= min) {
            max = min + 1;
        }
        return new double[] {min, max};
    }

    private double px(double v, double[] r, int w) {
        return LEFT + w * fraction(v, r, logX);
    }

    private double py(double v, double[] r, int h) {
        return TOP + h * (1 - fraction(v, r, logY));
    }

    private static double fraction(double v, double[] r, boolean log) {
        return log ? (Math.log10(v) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0]))
                : (v - r[0]) / (r[1] - r[0]);
    }

    private static boolean usable(double v, boolean log) {
        return Double.isFinite(v) && (!log || v > 0);
    }

    static List<Double> ticks(double[] r, boolean log) {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double t = r[0]; t <= r[1] * 1.0001; t *= 10) {
                ticks.add(t);
            }
            return ticks;
        }
        double span = r[1] - r[0];
        double step = Math.pow(10, Math.floor(Math.log10(span / 5)));
        if (span / step > 10) {
            step *= span / step > 25 ? 5 : 2;
        }
        for (double t = Math.ceil(r[0] / step) * step; t <= r[1] + step * 1e-9; t += step) {
            ticks.add(t);
        }
        return ticks;
    }

    private static String label(double v) {
        if (v != 0 && (Math.abs(v) < 0.01 || Math.abs(v) >= 100_000)) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        String s = String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
        return s.isEmpty() ? "0" : s;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
