package serbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Diff;
import serbench.harness.Serializer;
import serbench.harness.Sink;
import serbench.harness.UserTypes;
import serbench.harness.Workload;

/**
 * {@code transport}: one side of a loopback TCP connection (protocol section 9). Frames are a
 * 4-byte big-endian length and the encoded bytes; the receiver answers one byte per frame.
 */
public final class Transport {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final PrintStream out;
  private final Sink sink = new Sink();

  public Transport(PrintStream out) {
    this.out = out;
  }

  private void emit(Map<String, Object> e) throws Exception {
    out.println(JSON.writeValueAsString(e));
    out.flush();
  }

  private int fail(String code, String message) throws Exception {
    emit(Server.error(code, message, null));
    return 1;
  }

  public int run(InputStream in) throws Exception {
    JsonNode req;
    try {
      req = JSON.readTree(in.readAllBytes());
      if (req == null || !req.isObject() || req.path("protocol").asInt() != 2) {
        return fail("bad_request", "expected a protocol 2 transport request object");
      }
    } catch (Exception e) {
      return fail("bad_request", "not JSON: " + e.getMessage());
    }
    String role = req.path("role").asText();
    Serializer ser = Registry.byName(req.path("serializer").asText());
    if (ser == null) {
      return fail(
          "unknown_serializer",
          "unknown serializer '"
              + req.path("serializer").asText()
              + "'; valid: "
              + Registry.names());
    }
    JsonNode ds = req.path("dataset");
    String kind = ds.path("kind").asText("builtin");
    Dataset data;
    Codec codec;
    try {
      if (kind.equals("user")) {
        String reason = ser.userNotApplicable();
        if (reason != null) {
          return fail("not_applicable", reason);
        }
        data =
            Dataset.loadUser(
                    ds.path("name").asText(),
                    ds.path("data").asText(),
                    UserTypes.load(ds.path("types").asText()))
                .forSerializer(ser, ds.path("types").asText());
        codec = ser.userCodec(data, ds.path("schemas"));
      } else {
        DatasetKind k = DatasetKind.byId(ds.path("name").asText());
        if (k == null) {
          return fail(
              "unknown_dataset",
              "unknown dataset '" + ds.path("name").asText() + "'; valid: " + DatasetKind.ids());
        }
        String reason = ser.notApplicable(k);
        if (reason != null) {
          return fail("not_applicable", reason);
        }
        data = Dataset.load(k, ds.path("data").asText());
        codec = ser.codec(k);
      }
      codec.prepare(data.items);
    } catch (serbench.harness.NotApplicableException e) {
      return fail("not_applicable", e.getMessage());
    } catch (Exception e) {
      return fail("bad_data", Cell.describe(e));
    }
    int warmup = req.path("warmup").asInt(0);
    int reps = req.path("repetitions").asInt(1);
    int timeoutMs = (int) Math.min(Integer.MAX_VALUE, req.path("timeout").asDouble(120) * 1000);
    String host = req.path("host").asText("127.0.0.1");
    int port = req.path("port").asInt(0);
    Workload w = new Workload(codec, data, null);
    try {
      if (role.equals("receive")) {
        return receive(w, data, host, port, warmup, reps, timeoutMs);
      }
      if (role.equals("send")) {
        return send(w, host, port, warmup, reps, timeoutMs);
      }
      return fail("bad_request", "role must be 'send' or 'receive'");
    } catch (Exception e) {
      e.printStackTrace();
      return fail("exception", Cell.describe(e));
    }
  }

  private int receive(
      Workload w, Dataset data, String host, int port, int warmup, int reps, int timeoutMs)
      throws Exception {
    try (ServerSocket ss = new ServerSocket()) {
      ss.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      ss.setSoTimeout(timeoutMs);
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("event", "listening");
      l.put("port", ss.getLocalPort());
      emit(l);
      try (Socket s = ss.accept()) {
        s.setSoTimeout(timeoutMs);
        s.setTcpNoDelay(true);
        DataInputStream din = new DataInputStream(s.getInputStream());
        DataOutputStream dout = new DataOutputStream(s.getOutputStream());
        List<Long> receiveNs = new ArrayList<>();
        List<Long> decodeNs = new ArrayList<>();
        String first = null;
        long bytes = 0;
        byte[] buf = new byte[0];
        for (int r = 0; r < warmup + reps; r++) {
          int len = din.readInt();
          if (buf.length < len) {
            buf = new byte[len];
          }
          long t0 = System.nanoTime();
          din.readFully(buf, 0, len);
          long t1 = System.nanoTime();
          List<Object> got = new ArrayList<>();
          w.decode(buf, len, (i, m) -> got.add(m));
          long t2 = System.nanoTime();
          dout.write(1);
          dout.flush();
          if (first == null) {
            for (int i = 0; i < got.size() && first == null; i++) {
              String d = Diff.first(data.checkable(data.message(i)), data.checkable(got.get(i)));
              if (d != null) {
                first = "frame " + r + ": $[" + i + "]" + d;
              }
            }
            if (first == null && got.size() != data.count) {
              first = "frame " + r + ": decoded " + got.size() + " messages";
            }
          }
          sink.consume(got);
          if (r >= warmup) {
            receiveNs.add(t1 - t0);
            decodeNs.add(t2 - t1);
          }
          bytes = len;
        }
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("event", "transport_result");
        res.put("role", "receive");
        res.put("receive_ns", receiveNs);
        res.put("decode_ns", decodeNs);
        Map<String, Object> chk = new LinkedHashMap<>();
        chk.put("ok", first == null);
        chk.put("detail", first == null ? (warmup + reps) + " frames equal" : first);
        res.put("check", chk);
        res.put("bytes", bytes);
        emit(res);
        return first == null ? 0 : 1;
      }
    }
  }

  private int send(Workload w, String host, int port, int warmup, int reps, int timeoutMs)
      throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getByName(host), port), timeoutMs);
      s.setSoTimeout(timeoutMs);
      s.setTcpNoDelay(true);
      DataOutputStream dout = new DataOutputStream(s.getOutputStream());
      InputStream ack = s.getInputStream();
      List<Long> encodeNs = new ArrayList<>();
      List<Long> sendNs = new ArrayList<>();
      List<Long> totalNs = new ArrayList<>();
      long bytes = 0;
      for (int r = 0; r < warmup + reps; r++) {
        long t0 = System.nanoTime();
        Buf b = w.encode();
        long t1 = System.nanoTime();
        dout.writeInt(b.size());
        dout.write(b.array(), 0, b.size());
        dout.flush();
        long t2 = System.nanoTime();
        if (ack.read() < 0) {
          throw new java.io.EOFException("the receiver closed the connection");
        }
        long t3 = System.nanoTime();
        if (r >= warmup) {
          encodeNs.add(t1 - t0);
          sendNs.add(t2 - t1);
          totalNs.add(t3 - t0);
        }
        bytes = b.size();
      }
      Map<String, Object> res = new LinkedHashMap<>();
      res.put("event", "transport_result");
      res.put("role", "send");
      res.put("encode_ns", encodeNs);
      res.put("send_ns", sendNs);
      res.put("total_ns", totalNs);
      res.put("bytes", bytes);
      emit(res);
      return 0;
    }
  }
}
