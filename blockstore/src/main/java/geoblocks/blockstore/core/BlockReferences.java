package geoblocks.blockstore.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Answers the block collector's question "does a version kept here name block INDEX of file FILEID,
 * and does it place it at this region?" from a {@link ManifestStore}: the store's index of file ids
 * ({@link ManifestStore#namesOfFile}) gives the names, their histories the versions. A name the
 * index lists whose history cannot be read counts as {@link BlockCollector.Reference#UNREADABLE}.
 */
public final class BlockReferences {
    private BlockReferences() {}

    public static BlockCollector.Reference of(ManifestStore store, String region, String fileId, int index) {
        List<String> names;
        try {
            names = store.namesOfFile(fileId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (names.isEmpty()) {
            return BlockCollector.Reference.NONE;
        }
        boolean unreadable = false;
        for (String name : names) {
            Optional<ManifestHistory> h = store.history(name);
            if (h.isEmpty()) {
                unreadable = true;
                continue;
            }
            for (Manifest m : h.get().versions()) {
                if (m.fileId().equals(fileId) && index < m.blocks().size()
                        && m.blocks().get(index).replicas().contains(region)) {
                    return BlockCollector.Reference.HERE;
                }
            }
        }
        return unreadable ? BlockCollector.Reference.UNREADABLE : BlockCollector.Reference.ELSEWHERE;
    }
}
