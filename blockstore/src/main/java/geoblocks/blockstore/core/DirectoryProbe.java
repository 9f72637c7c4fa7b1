package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * The health check of one data directory: it still is the directory the node opened, its marker file
 * {@value #MARKER} (written on first use, with a random id) reads back the same, and its block
 * directory can be listed. A directory removed, renamed, unmounted (the marker is gone from the
 * empty mount point), replaced by another, or unreadable fails the check with the reason.
 */
final class DirectoryProbe implements MultiDiskStorage.HealthProbe {
    static final String MARKER = "geoblocks-disk";
    private final Path root;
    private final Path blocks;
    private final String marker;

    private DirectoryProbe(Path root, Path blocks, String marker) {
        this.root = root;
        this.blocks = blocks;
        this.marker = marker;
    }

    /** Reads the marker of {@code root} (writing a new one on first use) and returns the probe of that directory. */
    static DirectoryProbe open(Path root, Path blocks) throws IOException {
        Path m = root.resolve(MARKER);
        if (!Files.exists(m)) {
            Files.writeString(m, "geoblocks data directory " + UUID.randomUUID() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
        }
        return new DirectoryProbe(root, blocks, Files.readString(m, StandardCharsets.UTF_8));
    }

    @Override
    public String problem() {
        try {
            String now = Files.readString(root.resolve(MARKER), StandardCharsets.UTF_8);
            if (!now.equals(marker)) {
                return "its marker file " + MARKER + " changed: another directory is mounted there";
            }
            try (DirectoryStream<Path> s = Files.newDirectoryStream(blocks)) {
                s.iterator().hasNext();
            }
            if (!Files.isWritable(root)) {
                return "it is not writable";
            }
            return null;
        } catch (NoSuchFileException e) {
            return e.getFile() + " is gone";
        } catch (IOException | RuntimeException e) {
            return "cannot read it: " + e;
        }
    }
}
