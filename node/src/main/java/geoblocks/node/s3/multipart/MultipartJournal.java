package geoblocks.node.s3.multipart;

import geoblocks.net.DurableFile;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.encryption.SseParams;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.TagSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The multipart uploads of a gateway, kept beside their parts in the spool directory so they survive a
 * restart: one file per upload ({@code mpu-ID.journal}), rewritten whole (a temporary file, then renamed)
 * when the upload begins and when a part is added, removed when it completes or is aborted or expires. It
 * holds what CreateMultipartUpload asked for (bucket, key, content type, checksum, initiator, tags, the
 * headers record and the encryption's parameters, never a key) and each part (number, size, ETag, its file's
 * name in the spool, its checksum). At start, {@link #load} reads them back; a part whose file is gone is
 * left out, a journal that cannot be read is dropped (its parts with it).
 */
public final class MultipartJournal {
    static final String PREFIX = "mpu-";
    static final String SUFFIX = ".journal";
    static final String FORMAT = "geoblocks-multipart-v1";
    private final Path dir;

    /** An upload read back: the upload with its parts, and what Complete stores with the object. */
    public record Recovered(MultipartUploads.Upload upload, TagSet tags, Map<String, String> headers, SseParams sse) {}

    public MultipartJournal(Path dir) {
        this.dir = dir;
    }

    Path file(String id) {
        return dir.resolve(PREFIX + id + SUFFIX);
    }

    static boolean isJournal(Path p) {
        String n = p.getFileName().toString();
        return n.startsWith(PREFIX) && n.endsWith(SUFFIX);
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String unb64(String s) {
        return new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8);
    }

    /** Writes upload {@code u} (a copy taken under the uploads' lock) and its side data. */
    void write(MultipartUploads.Upload u, TagSet tags, Map<String, String> headers, SseParams sse) throws IOException {
        StringBuilder s = new StringBuilder(FORMAT).append('\n');
        s.append("id=").append(b64(u.id())).append('\n');
        s.append("bucket=").append(b64(u.bucket())).append('\n');
        s.append("key=").append(b64(u.key())).append('\n');
        s.append("type=").append(u.contentType() == null ? "-" : b64(u.contentType())).append('\n');
        s.append("started=").append(u.startedMillis()).append('\n');
        s.append("checksum=").append(u.checksum() == null ? "-" : u.checksum().name()).append('\n');
        s.append("checksumType=").append(u.checksumType() == null ? "-" : u.checksumType().name()).append('\n');
        s.append("initiator=").append(u.initiator() == null ? "-" : b64(u.initiator())).append('\n');
        s.append("tags=").append(tags == null || tags.size() == 0 ? "-"
                : b64(new String(tags.encode(), StandardCharsets.UTF_8))).append('\n');
        if (headers != null) {
            headers.forEach((k, v) -> s.append("header=").append(b64(k)).append(' ').append(b64(v)).append('\n'));
        }
        s.append("sse=").append(sse == null ? "-" : b64(sse.encode())).append('\n');
        for (MultipartUploads.Part p : u.parts().values()) {
            s.append("part=").append(p.number()).append(' ').append(p.size()).append(' ').append(p.etag()).append(' ')
                    .append(b64(p.file().getFileName().toString())).append(' ')
                    .append(p.checksumAlgorithm() == null ? "-" : p.checksumAlgorithm().name()).append(' ')
                    .append(p.checksum() == null ? "-" : Base64.getEncoder().encodeToString(p.checksum())).append(' ')
                    .append(p.addedMillis()).append('\n');
        }
        // fsynced, renamed into place, directory fsynced: a power cut leaves the old journal or the new one
        DurableFile.replace(file(u.id()), s.toString().getBytes(StandardCharsets.UTF_8));
    }

    void delete(String id) throws IOException {
        Files.deleteIfExists(file(id));
    }

    /** Removes the journals of uploads not in {@code ids} (they expired). */
    void retain(Set<String> ids) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (isJournal(p) && !ids.contains(n.substring(PREFIX.length(), n.length() - SUFFIX.length()))) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * At start: the uploads kept in the directory ({@link #load}), and every other file of a previous run removed
     * (bodies, downloads, temporary files: their requests are gone), the uploads' journals and parts kept.
     */
    public List<Recovered> recoverSpool(List<String> damaged) throws IOException {
        List<Recovered> recovered = load(damaged);
        Set<Path> keep = new HashSet<>();
        for (Recovered r : recovered) {
            keep.add(file(r.upload().id()));
            r.upload().parts().values().forEach(p -> keep.add(p.file()));
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!keep.contains(p)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (NoSuchFileException e) {
            // no spool directory yet: nothing to remove
        }
        return recovered;
    }

    /** The uploads kept in the directory; {@code damaged} gets the journals that could not be read (removed). */
    List<Recovered> load(List<String> damaged) throws IOException {
        List<Recovered> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> journals;
        try (Stream<Path> files = Files.list(dir)) {
            journals = files.filter(MultipartJournal::isJournal).sorted().toList();
        }
        for (Path j : journals) {
            try {
                out.add(read(j));
            } catch (IOException | RuntimeException | S3Exception e) {
                damaged.add(j.getFileName() + ": " + e.getMessage());
                Files.deleteIfExists(j);
            }
        }
        return out;
    }

    private Recovered read(Path j) throws IOException, S3Exception {
        List<String> lines = Files.readAllLines(j, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(FORMAT)) {
            throw new IOException("not a " + FORMAT + " journal");
        }
        Map<String, String> f = new LinkedHashMap<>();
        Map<String, String> headers = new TreeMap<>();
        TreeMap<Integer, MultipartUploads.Part> parts = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String k = line.substring(0, eq);
            String v = line.substring(eq + 1);
            if (k.equals("header")) {
                String[] kv = v.split(" ");
                headers.put(unb64(kv[0]), unb64(kv[1]));
            } else if (k.equals("part")) {
                String[] p = v.split(" ");
                Path file = dir.resolve(unb64(p[3]));
                if (!Files.isRegularFile(file) || Files.size(file) != Long.parseLong(p[1])) {
                    continue; // its file is gone or cut: the client uploads that part again
                }
                parts.put(Integer.parseInt(p[0]), new MultipartUploads.Part(Integer.parseInt(p[0]), Long.parseLong(p[1]), p[2],
                        file, p[4].equals("-") ? null : Checksums.Algorithm.valueOf(p[4]),
                        p[5].equals("-") ? null : Base64.getDecoder().decode(p[5]), Long.parseLong(p[6])));
            } else {
                f.put(k, v);
            }
        }
        String type = need(f, "type");
        String checksum = need(f, "checksum");
        String checksumType = need(f, "checksumType");
        String initiator = need(f, "initiator");
        MultipartUploads.Upload u = new MultipartUploads.Upload(unb64(need(f, "id")), unb64(need(f, "bucket")),
                unb64(need(f, "key")), type.equals("-") ? null : unb64(type), Long.parseLong(need(f, "started")), parts,
                checksum.equals("-") ? null : Checksums.Algorithm.valueOf(checksum),
                checksumType.equals("-") ? null : Checksums.Type.valueOf(checksumType),
                initiator.equals("-") ? null : unb64(initiator));
        String tags = need(f, "tags");
        String sse = need(f, "sse");
        return new Recovered(u, tags.equals("-") ? null : TagSet.decode(unb64(tags).getBytes(StandardCharsets.UTF_8)),
                Map.copyOf(headers), sse.equals("-") ? null : SseParams.of(Map.of(SseParams.META, unb64(sse))));
    }

    private static String need(Map<String, String> f, String k) throws IOException {
        String v = f.get(k);
        if (v == null) {
            throw new IOException("no " + k);
        }
        return v;
    }
}
