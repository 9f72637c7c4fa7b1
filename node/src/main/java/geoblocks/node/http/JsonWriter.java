package geoblocks.node.http;

/** A minimal streaming JSON writer for the dashboard's state: callers emit names and values in order; strings are escaped; NaN and infinities become null. */
public final class JsonWriter {
    private final StringBuilder s = new StringBuilder();
    private boolean comma;

    public JsonWriter begin() {
        sep();
        s.append('{');
        comma = false;
        return this;
    }

    public JsonWriter end() {
        s.append('}');
        comma = true;
        return this;
    }

    public JsonWriter beginArray() {
        sep();
        s.append('[');
        comma = false;
        return this;
    }

    public JsonWriter endArray() {
        s.append(']');
        comma = true;
        return this;
    }

    public JsonWriter name(String n) {
        sep();
        str(n);
        s.append(':');
        comma = false;
        return this;
    }

    public JsonWriter value(String v) {
        sep();
        if (v == null) {
            s.append("null");
        } else {
            str(v);
        }
        comma = true;
        return this;
    }

    public JsonWriter value(double v) {
        sep();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            s.append("null");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            s.append((long) v);
        } else {
            s.append(v);
        }
        comma = true;
        return this;
    }

    public JsonWriter value(boolean v) {
        sep();
        s.append(v);
        comma = true;
        return this;
    }

    public JsonWriter field(String n, String v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, double v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, boolean v) {
        return name(n).value(v);
    }

    private void sep() {
        if (comma) {
            s.append(',');
        }
        comma = false;
    }

    private void str(String v) {
        s.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '<' -> s.append("\\u003c"); // never closes a script element
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }

    @Override
    public String toString() {
        return s.toString();
    }
}
