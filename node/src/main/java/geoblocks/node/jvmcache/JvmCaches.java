package geoblocks.node.jvmcache;

import geoblocks.net.DurableFile;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where {@code train} puts the class caches of a jar and how launchers and the server find them: in the
 * directory the system property {@value #DIR_PROPERTY} names (or {@code off}: none), else beside the jar,
 * named by the jar and the JVM's feature release ({@link CacheKind#fileName}), each with its
 * {@link CacheStamp}. The file reading around the pure {@link CacheChoice} and {@link CacheStatus}.
 */
public final class JvmCaches {
    /** The system property naming the cache directory, or {@code off}. */
    public static final String DIR_PROPERTY = "geoblocks.jvm-cache";

    private JvmCaches() {}

    /** This JVM's feature release (17, 25, ...). */
    public static int feature() {
        return Runtime.version().feature();
    }

    /** The jar this program runs from ({@code java -jar node.jar}), or null when it runs from classes. */
    public static Path runningJar() {
        String cp = System.getProperty("java.class.path", "");
        return cp.endsWith(".jar") && !cp.contains(File.pathSeparator) ? Path.of(cp).toAbsolutePath() : null;
    }

    /** The directory the caches of {@code jar} are looked for in, or null when {@value #DIR_PROPERTY} is {@code off}. */
    public static Path dir(Path jar) {
        String p = System.getProperty(DIR_PROPERTY, "").strip();
        if (p.equals("off")) {
            return null;
        }
        return p.isEmpty() ? jar.toAbsolutePath().getParent() : Path.of(p).toAbsolutePath();
    }

    /** The cache this JVM would use for {@code jar} in {@code dir}. */
    public static Path cacheFile(Path dir, Path jar) {
        return dir.resolve(CacheKind.forFeature(feature()).fileName(jar.getFileName().toString(), feature()));
    }

    /** The identity of {@code jar} as the JVM checks it. */
    public static JarId jarId(Path jar) throws IOException {
        Path abs = jar.toAbsolutePath();
        return new JarId(abs.toString(), Files.size(abs), Files.getLastModifiedTime(abs).toMillis());
    }

    /** The choice for {@code jar} on this JVM in the default directory; null when caches are off. */
    public static CacheChoice.Choice choose(Path jar) throws IOException {
        Path dir = dir(jar);
        if (dir == null) {
            return null;
        }
        return choose(cacheFile(dir, jar), jar);
    }

    /** The choice of the cache {@code cache} for {@code jar} on this JVM. */
    public static CacheChoice.Choice choose(Path cache, Path jar) throws IOException {
        CacheStamp stamp = null;
        String problem = null;
        Path stampFile = stampOf(cache);
        if (Files.isRegularFile(stampFile)) {
            try {
                stamp = CacheStamp.parse(Files.readString(stampFile));
            } catch (CacheStamp.BadStampException e) {
                problem = e.getMessage();
            }
        }
        return CacheChoice.choose(CacheKind.forFeature(feature()), cache, Files.isRegularFile(cache), stamp, problem,
                jarId(jar), JvmId.current());
    }

    /** The stamp file beside {@code cache}. */
    public static Path stampOf(Path cache) {
        return cache.resolveSibling(CacheStamp.fileNameFor(cache.getFileName().toString()));
    }

    /** Writes {@code stamp} beside {@code cache}, durably ({@link DurableFile#replace}). */
    public static void writeStamp(Path cache, CacheStamp stamp) throws IOException {
        DurableFile.replace(stampOf(cache), stamp.toText().getBytes(StandardCharsets.UTF_8));
    }

    /** The server's line about its cache ({@link CacheStatus}), from this JVM's options and files. */
    public static CacheStatus.Line serverStatus() {
        CacheKind kind = CacheKind.forFeature(feature());
        List<String> options = ManagementFactory.getRuntimeMXBean().getInputArguments();
        boolean sharing = System.getProperty("java.vm.info", "").contains("sharing");
        Path jar = runningJar();
        CacheStatus.Fit fit = new CacheStatus.Unknown("not run from a jar");
        CacheChoice.Choice beside = null;
        try {
            String named = options.stream().map(CacheKind::cacheIn).filter(f -> f != null).reduce((a, b) -> b).orElse(null);
            if (jar != null && named != null) {
                fit = fitOf(choose(Path.of(named).toAbsolutePath(), jar));
            } else if (jar != null && named == null) {
                beside = choose(jar); // null when caches are off
            }
        } catch (IOException | RuntimeException e) {
            fit = new CacheStatus.Unknown("its stamp could not be read: " + e.getMessage());
        }
        return CacheStatus.describe(options, sharing, kind, fit, beside);
    }

    private static CacheStatus.Fit fitOf(CacheChoice.Choice c) {
        if (c instanceof CacheChoice.Use) {
            return new CacheStatus.Fits();
        }
        if (c instanceof CacheChoice.PassOver p) {
            return p.why().startsWith("its stamp") ? new CacheStatus.Unknown(p.why()) : new CacheStatus.Misfit(p.why());
        }
        return new CacheStatus.Unknown("no such file");
    }
}
