package geoblocks.blockstore.core;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a listing shows of a live head: {@link ManifestStore} keeps it beside the history on every
 * change ({@link ManifestKeys#LISTED}), so a page of a listing reads small records in name order
 * and decodes no history.
 */
public record Listed(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis,
        Map<String, String> meta) {
    static byte[] encode(Manifest m) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeLong(m.size());
            out.writeInt(m.blockSize());
            out.writeLong(m.createdMillis());
            out.writeUTF(m.policy());
            out.writeUTF(m.uploadedAt());
            out.writeByte(m.meta().size());
            for (Map.Entry<String, String> e : m.meta().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Listed decode(String name, byte[] v) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(v));
        if (in.readByte() != 1) {
            throw new IOException("unknown listing record format");
        }
        long size = in.readLong();
        int blockSize = in.readInt();
        long created = in.readLong();
        String policy = in.readUTF();
        String at = in.readUTF();
        int n = in.readUnsignedByte();
        Map<String, String> meta = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            meta.put(in.readUTF(), in.readUTF());
        }
        return new Listed(name, size, blockSize, policy, at, created, Collections.unmodifiableMap(meta));
    }
}
