package serbench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.Diff;
import serbench.harness.MessageConsumer;
import serbench.harness.Meter;
import serbench.harness.Serializer;
import serbench.harness.Sink;
import serbench.harness.Workload;

/**
 * One prepared cell: a serializer bound to a dataset, checked, with the buffers its operations need
 * (protocol section 4, {@code prepare}).
 */
final class Cell {
  final Serializer ser;
  final Dataset data;
  final Dataset check;
  final Codec codec;
  final Sink sink;

  /** The bytes {@code decode} reads: this runner's encoding, or another runner's (decode_from). */
  byte[] encoded;

  /** True when {@link #encoded} came from another runner: only decode can be sampled. */
  final boolean foreign;

  /** Foreign streams of a self-delimiting codec may be length-prefixed all the same. */
  private boolean prefixed;

  /**
   * False when an earlier process of the run already checked this cell and holds its sizes (the
   * request's {@code verify}): no decode, comparison or codec size, here or when building batches.
   * Always true with decode_from, whose check is the point.
   */
  final boolean verify;

  final Map<String, Object> sizes = new LinkedHashMap<>();
  String checkDetail;
  boolean checkOk;
  private final Map<String, Meter.Batch> batches = new HashMap<>();

  Cell(
      Serializer ser,
      Dataset data,
      Dataset check,
      Codec codec,
      boolean foreign,
      boolean verify,
      Sink sink) {
    this.ser = ser;
    this.data = data;
    this.check = check;
    this.codec = codec;
    this.foreign = foreign;
    this.verify = verify || foreign;
    this.sink = sink;
  }

  static String describe(Throwable t) {
    String m = t.getClass().getName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
    Throwable c = t.getCause();
    if (c != null && c != t) {
      m += " (caused by " + c.getClass().getName() + ": " + c.getMessage() + ")";
    }
    return m.length() > 1000 ? m.substring(0, 1000) + "..." : m;
  }

  /** Decodes {@code in} through {@code w} and compares with check_data; null when equal. */
  private String compare(Workload w, byte[] in) {
    String[] first = {null};
    int[] seen = {0};
    try {
      w.decode(
          in,
          in.length,
          (i, m) -> {
            seen[0]++;
            if (first[0] == null) {
              String d = Diff.first(check.message(i), data.checkable(m));
              if (d != null) {
                first[0] = "$[" + i + "]" + d;
              }
            }
          });
    } catch (Exception | StackOverflowError e) {
      return (foreign ? "cannot decode: " : "decode raised ") + describe(e);
    }
    if (seen[0] != data.count) {
      return "decoded " + seen[0] + " messages, expected " + data.count;
    }
    return first[0];
  }

  /**
   * Encodes, dumps, decodes (own or foreign bytes), checks and computes the sizes; without {@link
   * #verify}, only encodes and dumps.
   */
  void prepare(String dumpPath, String decodeFrom) throws Exception {
    codec.prepare(data.items);
    Workload plain = new Workload(codec, data, null);
    byte[] own = plain.encode().toByteArray();
    if (dumpPath != null) {
      File f = new File(dumpPath);
      if (f.getParentFile() != null) {
        f.getParentFile().mkdirs();
      }
      Files.write(f.toPath(), own);
    }
    String diff;
    if (decodeFrom != null) {
      encoded = Files.readAllBytes(new File(decodeFrom).toPath());
      diff = compare(plain, encoded);
      if (diff != null && data.stream && plain.selfDelimiting()) {
        Workload framed = new Workload(codec, data, null, true);
        if (compare(framed, encoded) == null) {
          prefixed = true;
          diff = null;
        }
      }
      sizes.put("encoded", encoded.length);
    } else {
      encoded = own;
      sizes.put("encoded", encoded.length);
      if (!verify) {
        // An earlier process checked this cell and holds its sizes, the same in every process:
        // skip the decode, the comparison and the compression. Nothing failed: the cell is usable.
        checkOk = true;
        return;
      }
      diff = compare(plain, encoded);
      for (String name : Compressor.NAMES) {
        sizes.put(name, new Workload(codec, data, Compressor.create(name)).compressedSize());
      }
    }
    checkOk = diff == null;
    if (checkOk) {
      checkDetail = data.count + (data.count == 1 ? " message" : " messages") + " equal";
      if (!data.stream && data.items.get(0) instanceof List && data.kind != null) {
        checkDetail = ((List<?>) data.items.get(0)).size() + " records equal";
      }
      if (foreign) {
        checkDetail += " (read " + encoded.length + " bytes from " + decodeFrom + ")";
      }
    } else {
      checkDetail = diff;
    }
  }

  /** The codec of an operation name, "" for none; null when the operation is not one of ours. */
  static String codecOf(String op) {
    if (op.equals("encode") || op.equals("decode")) {
      return "";
    }
    for (String c : Compressor.NAMES) {
      if (op.equals("encode+" + c) || op.equals(c + "+decode")) {
        return c;
      }
    }
    return null;
  }

  /** Whether this cell can time {@code op}. */
  boolean supports(String op) {
    return codecOf(op) != null && (!foreign || op.equals("decode"));
  }

  /**
   * The batch of an operation, built (and for compressed decodes, checked) on first use. Throws
   * IllegalStateException with the first difference when a compressed round trip differs.
   */
  Meter.Batch batch(String op) throws Exception {
    Meter.Batch b = batches.get(op);
    if (b != null) {
      return b;
    }
    String c = codecOf(op);
    Compressor comp = c.isEmpty() ? null : Compressor.create(c);
    Workload w = new Workload(codec, data, comp, prefixed);
    Sink s = sink;
    if (op.startsWith("encode")) {
      b =
          n -> {
            for (int k = 0; k < n; k++) {
              s.consume(w.encode().size());
            }
          };
    } else {
      byte[] in = comp == null ? encoded : w.encode().toByteArray();
      if (comp != null && verify) {
        String d = compare(w, in);
        if (d != null) {
          throw new IllegalStateException(op + ": " + d);
        }
      }
      MessageConsumer consume = (i, m) -> s.consume(m);
      b =
          n -> {
            for (int k = 0; k < n; k++) {
              w.decode(in, in.length, consume);
            }
          };
    }
    batches.put(op, b);
    return b;
  }

  /** Builds the requested operations' batches; returns the unsupported ones. */
  List<String> prepareOperations(JsonNode ops) throws Exception {
    List<String> unsupported = new ArrayList<>();
    for (JsonNode o : ops) {
      String op = o.asText();
      if (!supports(op)) {
        unsupported.add(op);
      } else if (checkOk) {
        try {
          batch(op);
        } catch (IllegalStateException e) {
          checkOk = false;
          checkDetail = e.getMessage();
        }
      }
    }
    return unsupported;
  }
}
