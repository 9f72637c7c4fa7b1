package geoblocks.node.s3.multipart;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Which multipart uploads a ListMultipartUploads page shows, and which parts a ListParts page shows
 * (S3's rules: uploads by key, then by start time, after {@code key-marker} /
 * {@code upload-id-marker}; keys under a {@code delimiter} rolled up into common prefixes; parts by
 * number after {@code part-number-marker}). Pure.
 */
public final class UploadListing {
    private UploadListing() {}

    /** A page of uploads: the uploads, common prefixes, whether more follow and the markers to ask for them. */
    public record Page(List<MultipartUploads.Upload> uploads, List<String> prefixes, boolean truncated,
            String nextKeyMarker, String nextUploadIdMarker) {}

    static final Comparator<MultipartUploads.Upload> ORDER = Comparator.comparing(MultipartUploads.Upload::key)
            .thenComparingLong(MultipartUploads.Upload::startedMillis).thenComparing(MultipartUploads.Upload::id);

    public static Page uploads(Collection<MultipartUploads.Upload> all, String bucket, String prefix, String delimiter,
            String keyMarker, String uploadIdMarker, int max) {
        String p = prefix == null ? "" : prefix;
        List<MultipartUploads.Upload> sorted = new ArrayList<>();
        for (MultipartUploads.Upload u : all) {
            if (u.bucket().equals(bucket) && u.key().startsWith(p)) {
                sorted.add(u);
            }
        }
        sorted.sort(ORDER);
        int from = 0;
        if (keyMarker != null && !keyMarker.isEmpty()) {
            from = sorted.size();
            for (int i = 0; i < sorted.size(); i++) {
                MultipartUploads.Upload u = sorted.get(i);
                int c = u.key().compareTo(keyMarker);
                if (c > 0) {
                    from = i;
                    break;
                }
                if (c == 0 && uploadIdMarker != null && !uploadIdMarker.isEmpty() && u.id().equals(uploadIdMarker)) {
                    from = i + 1;
                    break;
                }
            }
        }
        List<MultipartUploads.Upload> out = new ArrayList<>();
        TreeSet<String> prefixes = new TreeSet<>();
        String lastKey = null;
        String lastId = null;
        boolean truncated = false;
        for (int i = from; i < sorted.size(); i++) {
            MultipartUploads.Upload u = sorted.get(i);
            String common = null;
            if (delimiter != null && !delimiter.isEmpty()) {
                int d = u.key().indexOf(delimiter, p.length());
                if (d >= 0) {
                    common = u.key().substring(0, d + delimiter.length());
                }
            }
            if (common != null && prefixes.contains(common)) {
                continue;
            }
            if (out.size() + prefixes.size() >= max) {
                truncated = true;
                break;
            }
            if (common != null) {
                prefixes.add(common);
                lastKey = common;
                lastId = null;
            } else {
                out.add(u);
                lastKey = u.key();
                lastId = u.id();
            }
        }
        return new Page(out, new ArrayList<>(prefixes), truncated, truncated ? lastKey : null, truncated ? lastId : null);
    }

    /** A page of parts: the parts after {@code marker} (a part number), at most {@code max}, and whether more follow. */
    public record Parts(List<MultipartUploads.Part> parts, boolean truncated, int next) {}

    public static Parts parts(Collection<MultipartUploads.Part> all, int marker, int max) {
        List<MultipartUploads.Part> out = new ArrayList<>();
        boolean truncated = false;
        List<MultipartUploads.Part> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingInt(MultipartUploads.Part::number));
        for (MultipartUploads.Part part : sorted) {
            if (part.number() <= marker) {
                continue;
            }
            if (out.size() >= max) {
                truncated = true;
                break;
            }
            out.add(part);
        }
        return new Parts(out, truncated, out.isEmpty() ? marker : out.get(out.size() - 1).number());
    }
}
