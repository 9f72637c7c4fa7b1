package geoblocks.app.load;

import geoblocks.net.HostPort;
import geoblocks.node.AppConfig;
import geoblocks.node.http.HttpSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * The admission queues' counters summed over the cluster's nodes, read from each node's
 * {@code /metrics} ({@code geoblocks_admission_*}): requests admitted at once and after waiting,
 * the time they waited, and the requests refused after the wait or with the queue full. Nodes
 * without an HTTP port, or that do not answer, count as zero and are named in {@link #missing}.
 */
record AdmissionFigures(long atOnce, long queued, double waitSeconds, double maxWaitSeconds, long refusedDeadline,
        long refusedFull, String missing) {

    /** The figures now, over every region of {@code cfg}. */
    static AdmissionFigures read(AppConfig cfg) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        AdmissionFigures sum = new AdmissionFigures(0, 0, 0, 0, 0, 0, "");
        for (String region : cfg.cluster().regionIds()) {
            Optional<HttpSettings> s = HttpSettings.of(cfg.config(), region, cfg.cluster().address(region).getIp());
            AdmissionFigures one = null;
            if (s.isPresent()) {
                try {
                    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://"
                            + HostPort.of(s.get().bind().getAddress(), s.get().bind().getPort())
                            + "/metrics"))
                            .timeout(Duration.ofSeconds(10));
                    if (s.get().probesNeedAuth() && !s.get().dashboardPassword().isEmpty()) {
                        b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                                (s.get().dashboardUser() + ":" + s.get().dashboardPassword()).getBytes(StandardCharsets.UTF_8)));
                    }
                    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        one = parse(r.body());
                    }
                } catch (IOException e) {
                    one = null;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            sum = one == null ? sum.missing(region) : sum.plus(one);
        }
        return sum;
    }

    /** The figures in one node's Prometheus text. */
    static AdmissionFigures parse(String metrics) {
        long atOnce = 0;
        long queued = 0;
        double wait = 0;
        double max = 0;
        long deadline = 0;
        long full = 0;
        for (String line : metrics.split("\n")) {
            if (!line.startsWith("geoblocks_admission_")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, space);
            double v = Double.parseDouble(line.substring(space + 1));
            switch (name) {
                case "geoblocks_admission_admitted_total{wait=\"none\"}" -> atOnce = (long) v;
                case "geoblocks_admission_admitted_total{wait=\"queued\"}" -> queued = (long) v;
                case "geoblocks_admission_wait_seconds_total" -> wait = v;
                case "geoblocks_admission_max_wait_seconds" -> max = v;
                case "geoblocks_admission_refused_total{reason=\"deadline\"}" -> deadline = (long) v;
                case "geoblocks_admission_refused_total{reason=\"queue_full\"}" -> full = (long) v;
                default -> { }
            }
        }
        return new AdmissionFigures(atOnce, queued, wait, max, deadline, full, "");
    }

    /** What happened between {@code before} and this (counters subtracted; the max wait is this one's). */
    AdmissionFigures since(AdmissionFigures before) {
        return new AdmissionFigures(atOnce - before.atOnce, queued - before.queued, waitSeconds - before.waitSeconds,
                maxWaitSeconds, refusedDeadline - before.refusedDeadline, refusedFull - before.refusedFull,
                missing.isEmpty() ? before.missing : missing);
    }

    private AdmissionFigures plus(AdmissionFigures o) {
        return new AdmissionFigures(atOnce + o.atOnce, queued + o.queued, waitSeconds + o.waitSeconds,
                Math.max(maxWaitSeconds, o.maxWaitSeconds), refusedDeadline + o.refusedDeadline,
                refusedFull + o.refusedFull, missing);
    }

    private AdmissionFigures missing(String region) {
        return new AdmissionFigures(atOnce, queued, waitSeconds, maxWaitSeconds, refusedDeadline, refusedFull,
                missing.isEmpty() ? region : missing + "," + region);
    }
}
