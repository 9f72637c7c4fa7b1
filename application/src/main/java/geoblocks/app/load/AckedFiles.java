package geoblocks.app.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files the cluster acknowledged (a put returned success), in acknowledgement order, and
 * those ever read back with wrong bytes. Thread-safe. Holds only names and keys, never contents:
 * a file's bytes follow from its key ({@link Content}).
 */
final class AckedFiles {
    /** One acknowledged file: its name, index (content key source), size and where it was put. */
    record File(long index, String name, long key, long size, String putAt) {}

    private final List<File> files = new ArrayList<>();
    private final Set<String> corrupt = ConcurrentHashMap.newKeySet();

    synchronized void add(File f) {
        files.add(f);
    }

    /** A uniformly random acknowledged file, or null when there is none yet. */
    synchronized File random(SplittableRandom rnd) {
        return files.isEmpty() ? null : files.get(rnd.nextInt(files.size()));
    }

    synchronized int size() {
        return files.size();
    }

    synchronized List<File> snapshot() {
        return List.copyOf(files);
    }

    /** Records that {@code name} was once read back with wrong bytes. */
    void markCorrupt(String name) {
        corrupt.add(name);
    }

    Set<String> corrupt() {
        return Set.copyOf(corrupt);
    }
}
