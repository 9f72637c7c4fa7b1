package geoblocks.sim.harness;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots made with XChart: time-series panels (one line per series) stacked into one figure,
 * and bar charts with error bars. Rendering is headless.
 */
public final class Charts {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {}

    /** A line panel: x in seconds, one series per map entry ({x[], y[]}), in map order. */
    public static XYChart timeSeries(String title, String yLabel, Map<String, double[][]> series, int width, int height) {
        return timeSeries(title, yLabel, series, width, height, Double.NaN);
    }

    /** As above, with the y axis cut at {@code yMax} (NaN: automatic) so that rare spikes do not flatten the rest. */
    public static XYChart timeSeries(String title, String yLabel, Map<String, double[][]> series, int width, int height,
            double yMax) {
        XYChart c = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle("time (s)")
                .yAxisTitle(yLabel).build();
        Styler st = c.getStyler();
        st.setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setMarkerSize(0);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesVisible(true);
        c.getStyler().setXAxisDecimalPattern("#0");
        c.getStyler().setXAxisTickMarkSpacingHint(90);
        c.getStyler().setXAxisMin(0.0);
        if (!Double.isNaN(yMax)) {
            c.getStyler().setYAxisMax(yMax);
            c.getStyler().setYAxisMin(0.0);
        }
        double xMax = 0;
        for (double[][] xy : series.values()) {
            for (double x : xy[0]) {
                xMax = Math.max(xMax, x);
            }
        }
        c.getStyler().setXAxisMax(Math.ceil(xMax));
        // XChart sometimes puts a label on every second; keep only round ones
        double step = xMax <= 40 ? 5 : 10;
        c.getStyler().setxAxisTickLabelsFormattingFunction(
                x -> Math.abs(x / step - Math.rint(x / step)) < 1e-6 ? String.valueOf(Math.round(x)) : "");
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            double[][] xy = e.getValue();
            if (xy[0].length == 0) {
                continue;
            }
            XYSeries s = c.addSeries(e.getKey(), xy[0], xy[1]);
            s.setMarker(SeriesMarkers.NONE);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        }
        return c;
    }

    /** Writes the panels one above the other into one PNG. */
    public static void writeStacked(Path file, List<? extends Chart<?, ?>> panels)
            throws IOException {
        int w = 0;
        int h = 0;
        BufferedImage[] imgs = new BufferedImage[panels.size()];
        for (int i = 0; i < imgs.length; i++) {
            imgs[i] = BitmapEncoder.getBufferedImage(panels.get(i));
            w = Math.max(w, imgs[i].getWidth());
            h += imgs[i].getHeight();
        }
        BufferedImage all = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        int y = 0;
        for (BufferedImage img : imgs) {
            g.drawImage(img, 0, y, null);
            y += img.getHeight();
        }
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(all, "png", file.toFile());
    }

    /**
     * A bar chart with error bars: one group per category, one series per map entry with
     * {means[], errors[]} aligned with the categories.
     */
    public static CategoryChart bars(String title, String yLabel, List<String> categories,
            Map<String, double[][]> series, int width, int height) {
        CategoryChart c = new CategoryChartBuilder().width(width).height(height).title(title).yAxisTitle(yLabel).build();
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setErrorBarsColor(Color.BLACK);
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            c.addSeries(e.getKey(), categories, toList(e.getValue()[0]), toList(e.getValue()[1]));
        }
        return c;
    }

    private static List<Double> toList(double[] a) {
        return Arrays.stream(a).boxed().toList();
    }

    public static void write(Path file, CategoryChart chart) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
