package serbench.harness;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * The general-purpose codecs of protocol section 3: zlib level 6 (java.util.zip), zstd level 3
 * (zstd-jni), lz4 frame format at its default level (lz4-java). Each instance reuses its state.
 */
public abstract class Compressor {
  public static final String[] NAMES = {"zlib", "zstd", "lz4"};

  public abstract String name();

  /** Appends the compressed form of {@code src[off, off+len)} to {@code out}. */
  public abstract void compress(byte[] src, int off, int len, Buf out) throws Exception;

  /** Appends the decompressed form to {@code out}. */
  public abstract void decompress(byte[] src, int off, int len, Buf out) throws Exception;

  public static Compressor create(String name) {
    switch (name) {
      case "zlib":
        return new Zlib(6);
      case "zstd":
        return new ZstdCodec();
      case "lz4":
        return new Lz4();
      default:
        return null;
    }
  }

  /** RFC 1950 zlib via java.util.zip. */
  public static final class Zlib extends Compressor {
    private final Deflater deflater;
    private final Inflater inflater = new Inflater();

    public Zlib(int level) {
      deflater = new Deflater(level);
    }

    @Override
    public String name() {
      return "zlib";
    }

    @Override
    public void compress(byte[] src, int off, int len, Buf out) {
      deflater.reset();
      deflater.setInput(src, off, len);
      deflater.finish();
      out.ensure(len / 2 + 64);
      while (!deflater.finished()) {
        if (out.array().length - out.size() < 64) {
          out.ensure(out.array().length);
        }
        int k = deflater.deflate(out.array(), out.size(), out.array().length - out.size());
        out.advance(k);
      }
    }

    @Override
    public void decompress(byte[] src, int off, int len, Buf out) throws DataFormatException {
      inflater.reset();
      inflater.setInput(src, off, len);
      out.ensure(len * 3 + 64);
      while (!inflater.finished()) {
        if (out.array().length - out.size() < 64) {
          out.ensure(out.array().length);
        }
        int k = inflater.inflate(out.array(), out.size(), out.array().length - out.size());
        if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new DataFormatException("truncated zlib stream");
        }
        out.advance(k);
      }
    }
  }

  /** zstd level 3 with reused contexts; frames carry their content size. */
  public static final class ZstdCodec extends Compressor {
    private final ZstdCompressCtx cctx = new ZstdCompressCtx();
    private final ZstdDecompressCtx dctx = new ZstdDecompressCtx();

    ZstdCodec() {
      cctx.setLevel(3);
      cctx.setContentSize(true);
    }

    @Override
    public String name() {
      return "zstd";
    }

    @Override
    public void compress(byte[] src, int off, int len, Buf out) {
      int bound = (int) Zstd.compressBound(len);
      out.ensure(bound);
      int k = cctx.compressByteArray(out.array(), out.size(), bound, src, off, len);
      out.advance(k);
    }

    @Override
    public void decompress(byte[] src, int off, int len, Buf out) throws IOException {
      long size = Zstd.getFrameContentSize(src, off, len);
      if (size < 0 || size > Integer.MAX_VALUE) {
        throw new IOException("zstd frame without content size");
      }
      out.ensure((int) size);
      int k = dctx.decompressByteArray(out.array(), out.size(), (int) size, src, off, len);
      out.advance(k);
    }
  }

  /** LZ4 frame format (lz4-java streams), default level. */
  public static final class Lz4 extends Compressor {
    private final byte[] chunk = new byte[65536];

    @Override
    public String name() {
      return "lz4";
    }

    @Override
    public void compress(byte[] src, int off, int len, Buf out) throws IOException {
      try (LZ4FrameOutputStream s = new LZ4FrameOutputStream(out)) {
        s.write(src, off, len);
      }
    }

    @Override
    public void decompress(byte[] src, int off, int len, Buf out) throws IOException {
      try (LZ4FrameInputStream s = new LZ4FrameInputStream(new ByteArrayInputStream(src, off, len))) {
        int k;
        while ((k = s.read(chunk)) > 0) {
          out.write(chunk, 0, k);
        }
      }
    }
  }
}
