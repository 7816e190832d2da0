package serbench.harness;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

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

  /**
   * LZ4 frame format (lz4-java's block codec at its default level, framed here so that buffers are
   * reused: independent blocks of up to 4 MiB, content size in the header, no checksums).
   */
  public static final class Lz4 extends Compressor {
    private static final int MAGIC = 0x184D2204;
    private static final int BLOCK = 4 << 20;
    private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    private final LZ4SafeDecompressor decompressor =
        LZ4Factory.fastestInstance().safeDecompressor();
    private final XXHash32 xxhash = XXHashFactory.fastestInstance().hash32();

    @Override
    public String name() {
      return "lz4";
    }

    private static void le32(Buf out, int v) {
      out.write(v);
      out.write(v >>> 8);
      out.write(v >>> 16);
      out.write(v >>> 24);
    }

    private static int le32(byte[] b, int p) {
      return (b[p] & 0xFF)
          | (b[p + 1] & 0xFF) << 8
          | (b[p + 2] & 0xFF) << 16
          | (b[p + 3] & 0xFF) << 24;
    }

    @Override
    public void compress(byte[] src, int off, int len, Buf out) {
      le32(out, MAGIC);
      int desc = out.size();
      out.write(0x68); // version 01, independent blocks, content size present
      out.write(0x70); // 4 MiB blocks
      long size = len;
      for (int i = 0; i < 8; i++) {
        out.write((int) (size >>> (8 * i)));
      }
      out.write((xxhash.hash(out.array(), desc, 10, 0) >>> 8) & 0xFF);
      for (int p = 0; p < len; p += BLOCK) {
        int n = Math.min(BLOCK, len - p);
        int bound = compressor.maxCompressedLength(n);
        out.ensure(bound + 4);
        int at = out.size();
        out.advance(4);
        int k = compressor.compress(src, off + p, n, out.array(), out.size(), bound);
        if (k < n) {
          out.advance(k);
          byte[] a = out.array();
          a[at] = (byte) k;
          a[at + 1] = (byte) (k >>> 8);
          a[at + 2] = (byte) (k >>> 16);
          a[at + 3] = (byte) (k >>> 24);
        } else {
          out.setSize(at);
          le32(out, n | 0x80000000);
          out.write(src, off + p, n);
        }
      }
      le32(out, 0);
    }

    @Override
    public void decompress(byte[] src, int off, int len, Buf out) throws IOException {
      int end = off + len;
      if (len < 7 || le32(src, off) != MAGIC) {
        throw new IOException("not an LZ4 frame");
      }
      int flg = src[off + 4] & 0xFF;
      int p = off + 6;
      if ((flg & 0x08) != 0) {
        long size = 0;
        for (int i = 0; i < 8; i++) {
          size |= (long) (src[p + i] & 0xFF) << (8 * i);
        }
        out.ensure((int) size);
        p += 8;
      }
      if ((flg & 0x01) != 0) {
        p += 4;
      }
      p++; // header checksum
      while (true) {
        if (p + 4 > end) {
          throw new IOException("truncated LZ4 frame");
        }
        int bs = le32(src, p);
        p += 4;
        if (bs == 0) {
          break;
        }
        int n = bs & 0x7FFFFFFF;
        if ((bs & 0x80000000) != 0) {
          out.write(src, p, n);
        } else {
          out.ensure(BLOCK);
          int k = decompressor.decompress(src, p, n, out.array(), out.size(), BLOCK);
          out.advance(k);
        }
        p += n;
        if ((flg & 0x10) != 0) {
          p += 4;
        }
      }
    }
  }
}
