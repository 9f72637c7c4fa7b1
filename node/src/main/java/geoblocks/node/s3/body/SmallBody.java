package geoblocks.node.s3.body;

import geoblocks.node.http.Exchange;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.auth.SigV4;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * A request body the gateway reads whole (an XML document): at most {@link S3Xml#MAX_BODY} bytes are
 * kept; a longer body is read to its end and then refused as MalformedXML, so the connection stays in step.
 * A body whose request signs its hash ({@code x-amz-content-sha256} with a SHA-256, not UNSIGNED-PAYLOAD)
 * must match it, else XAmzContentSHA256Mismatch: a captured signed request cannot carry another body.
 */
public final class SmallBody implements Exchange.BodySink {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final S3Call call;
    private final Consumer<byte[]> onDone;
    private boolean tooBig;

    public SmallBody(S3Call call, Consumer<byte[]> onDone) {
        this.call = call;
        this.onDone = onDone;
    }

    @Override
    public void onChunk(ByteBuf chunk) throws IOException {
        if (tooBig || bytes.size() + chunk.readableBytes() > S3Xml.MAX_BODY) {
            tooBig = true;
            return;
        }
        chunk.readBytes(bytes, chunk.readableBytes());
    }

    @Override
    public void onEnd() {
        if (tooBig) {
            call.fail(S3Error.MALFORMED_XML, "XML bodies are at most " + S3Xml.MAX_BODY + " bytes");
            return;
        }
        byte[] body = bytes.toByteArray();
        if (BodyReceiver.signedPayload(call)) {
            String got = HexFormat.of().formatHex(SigV4.SHA256.get().digest(body));
            if (!got.equalsIgnoreCase(call.payloadHash)) {
                call.fail(S3Error.SHA256_MISMATCH, "x-amz-content-sha256 " + call.payloadHash + " does not match the"
                        + " body's " + got);
                return;
            }
        }
        onDone.accept(body);
    }
}
