package geoblocks.app;

import geoblocks.node.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium driven through Debian's ChromeDriver over the W3C WebDriver protocol (JSON
 * over HTTP, spoken here with the JDK's HttpClient: no Selenium, whose manager would try to download
 * drivers). Chromium runs with the flags this closed network needs (no background networking, no
 * QUIC, no component updates) and a fresh profile. Only what the dashboard test needs: navigate, run
 * a script that returns a string, click an element, save a screenshot, set a request header (via
 * Chrome DevTools' Network domain).
 */
final class WebDriverSession implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
    private final Process driver;
    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private WebDriverSession(Process driver, String base) {
        this.driver = driver;
        this.base = base;
    }

    static WebDriverSession start(Path profile, Path driverLog) throws IOException, InterruptedException {
        int port = Ports.freePort(InetAddress.getLoopbackAddress());
        Process p = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port)
                .redirectErrorStream(true).redirectOutput(driverLog.toFile()).start();
        String root = "http://127.0.0.1:" + port;
        WebDriverSession probe = new WebDriverSession(p, root);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                if (probe.call("GET", "/status", null).contains("\"ready\":true")) {
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline || !p.isAlive()) {
                p.destroyForcibly();
                throw new IOException("chromedriver did not start: " + Files.readString(driverLog));
            }
            Thread.sleep(100);
        }
        String args = String.join(",", List.of("\"--headless=new\"", "\"--no-sandbox\"", "\"--disable-gpu\"",
                "\"--disable-dev-shm-usage\"", "\"--disable-quic\"", "\"--no-first-run\"",
                "\"--disable-background-networking\"", "\"--disable-component-update\"", "\"--disable-sync\"",
                "\"--window-size=1400,1100\"", "\"--user-data-dir=" + profile.toAbsolutePath() + "\""));
        String caps = "{\"capabilities\":{\"alwaysMatch\":{\"browserName\":\"chrome\",\"goog:chromeOptions\":{"
                + "\"binary\":\"" + CHROMIUM + "\",\"args\":[" + args + "]}}}}";
        String r = probe.call("POST", "/session", caps);
        Matcher m = Pattern.compile("\"sessionId\":\"([^\"]+)\"").matcher(r);
        if (!m.find()) {
            p.destroyForcibly();
            throw new IOException("no WebDriver session: " + r);
        }
        return new WebDriverSession(p, root + "/session/" + m.group(1));
    }

    /** Sends {@code name: value} with every request the page makes (Chrome DevTools Network.setExtraHTTPHeaders). */
    void setHeader(String name, String value) throws IOException, InterruptedException {
        call("POST", "/goog/cdp/execute", "{\"cmd\":\"Network.enable\",\"params\":{}}");
        call("POST", "/goog/cdp/execute", "{\"cmd\":\"Network.setExtraHTTPHeaders\",\"params\":{\"headers\":{"
                + json(name) + ":" + json(value) + "}}}");
    }

    void navigate(String url) throws IOException, InterruptedException {
        call("POST", "/url", "{\"url\":" + json(url) + "}");
    }

    /** Runs {@code script} (a function body) in the page; returns its result as JSON text (a string result is quoted). */
    String script(String script) throws IOException, InterruptedException {
        String r = call("POST", "/execute/sync", "{\"script\":" + json(script) + ",\"args\":[]}");
        return r.substring(r.indexOf("\"value\":") + 8, r.lastIndexOf('}'));
    }

    void click(String css) throws IOException, InterruptedException {
        String r = call("POST", "/element", "{\"using\":\"css selector\",\"value\":" + json(css) + "}");
        Matcher m = Pattern.compile("\"" + ELEMENT_KEY + "\":\"([^\"]+)\"").matcher(r);
        if (!m.find()) {
            throw new IOException("no element " + css + ": " + r);
        }
        call("POST", "/element/" + m.group(1) + "/click", "{}");
    }

    void screenshot(Path png) throws IOException, InterruptedException {
        String r = call("GET", "/screenshot", null);
        Matcher m = Pattern.compile("\"value\":\"([^\"]+)\"").matcher(r);
        if (!m.find()) {
            throw new IOException("no screenshot: " + r);
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.write(png, Base64.getDecoder().decode(m.group(1)));
    }

    private String call(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("WebDriver " + method + " " + path + ": HTTP " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    @Override
    public void close() {
        try {
            call("DELETE", "", null);
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the browser is going away anyway
        }
        driver.destroy();
        try {
            if (!driver.waitFor(5, TimeUnit.SECONDS)) {
                driver.destroyForcibly();
            }
        } catch (InterruptedException e) {
            driver.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
