package geoblocks.app.cli;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;

/** Minimal JSON rendering of a manifest for {@code stat --json}. */
final class Json {
    private Json() {}

    static String manifest(Manifest m) {
        StringBuilder s = new StringBuilder("{");
        s.append("\"name\":").append(str(m.name())).append(',')
                .append("\"size\":").append(m.size()).append(',')
                .append("\"blockSize\":").append(m.blockSize()).append(',')
                .append("\"policy\":").append(str(m.policy())).append(',')
                .append("\"uploadedAt\":").append(str(m.uploadedAt())).append(',')
                .append("\"createdMillis\":").append(m.createdMillis()).append(',')
                .append("\"blocks\":[");
        for (int i = 0; i < m.blocks().size(); i++) {
            Manifest.BlockRef b = m.blocks().get(i);
            s.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"length\":").append(b.length())
                    .append(",\"crc32c\":\"").append(Checksums.hex(b.crc())).append("\",\"replicas\":[");
            for (int r = 0; r < b.replicas().size(); r++) {
                s.append(r == 0 ? "" : ",").append(str(b.replicas().get(r)));
            }
            s.append("]}");
        }
        return s.append("]}").toString();
    }

    static String str(String v) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : v.toCharArray()) {
            switch (c) {
                case '"': s.append("\\\""); break;
                case '\\': s.append("\\\\"); break;
                default:
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
            }
        }
        return s.append('"').toString();
    }
}
