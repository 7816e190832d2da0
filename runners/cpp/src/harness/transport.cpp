// Optional protocol section 9: one side of a real loopback TCP transfer (S3). Frames are
// a 4-byte big-endian length and the encoded bytes (the whole dataset, framed as in section
// 6 when it is a stream); the receiver answers one byte per frame.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "cell.h"

namespace sb {
namespace {

struct TransportError : std::runtime_error {
  std::string code;
  TransportError(std::string c, const std::string& m) : std::runtime_error(m), code(std::move(c)) {}
};

void emit_line(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

void set_timeouts(int fd, double seconds) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(seconds);
  tv.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(tv.tv_sec)) * 1e6);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void read_all(int fd, uint8_t* p, size_t n) {
  while (n) {
    ssize_t r = ::recv(fd, p, n, 0);
    if (r <= 0)
      throw TransportError("io", r == 0 ? "connection closed" : "recv failed or timed out");
    p += r, n -= static_cast<size_t>(r);
  }
}
void write_all(int fd, const uint8_t* p, size_t n) {
  while (n) {
    ssize_t r = ::send(fd, p, n, MSG_NOSIGNAL);
    if (r <= 0) throw TransportError("io", "send failed or timed out");
    p += r, n -= static_cast<size_t>(r);
  }
}

sockaddr_in address(const std::string& host, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1)
    throw TransportError("bad_request", "bad host " + host);
  return a;
}

struct Request {
  std::string role, serializer, dataset, data, host = "127.0.0.1";
  int port = 0, repetitions = 20, warmup = 2;
  double timeout = 120;
};

template <class T>
void receive(Codec<T>& codec, const Request& q) {
  CellRunner<T> r{codec, load_dataset<T>(q.data), {}, {}, {}, {}, 0, 0};
  r.check_items = r.data.items;
  codec.prepare(r.data.items);
  Fd ls;
  ls.fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(ls.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = address(q.host, q.port);
  if (bind(ls.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(ls.fd, 1) != 0)
    throw TransportError("io", "cannot listen on " + q.host + ":" + std::to_string(q.port));
  socklen_t len = sizeof a;
  getsockname(ls.fd, reinterpret_cast<sockaddr*>(&a), &len);
  emit_line({{"event", "listening"}, {"port", ntohs(a.sin_port)}});
  pollfd pfd{ls.fd, POLLIN, 0};
  if (poll(&pfd, 1, static_cast<int>(q.timeout * 1000)) != 1)
    throw TransportError("timeout", "no sender connected");
  Fd c;
  c.fd = accept(ls.fd, nullptr, nullptr);
  if (c.fd < 0) throw TransportError("io", "accept failed");
  set_timeouts(c.fd, q.timeout);
  std::vector<uint64_t> receive_ns, decode_ns;
  json check = {{"ok", true}, {"detail", "no frames"}};
  size_t bytes = 0;
  for (int i = 0; i < q.warmup + q.repetitions; ++i) {
    uint8_t hdr[4];
    read_all(c.fd, hdr, 4);
    size_t n = (size_t(hdr[0]) << 24) | (size_t(hdr[1]) << 16) | (size_t(hdr[2]) << 8) | hdr[3];
    uint64_t t0 = now_ns(CLOCK_MONOTONIC);
    r.enc.resize(n + kPad);
    read_all(c.fd, r.enc.data(), n);
    std::fill(r.enc.begin() + static_cast<long>(n), r.enc.end(), 0);
    r.enc_size = n;
    uint64_t t1 = now_ns(CLOCK_MONOTONIC);
    {
      T scratch;
      uint64_t sink = 0;
      r.for_each_frame(r.enc.data(), n, [&](size_t, const uint8_t* p, size_t m) -> size_t {
        return codec.decode_timed(p, m, scratch, sink);  // as the run decode operation
      });
      do_not_optimize(scratch);
      do_not_optimize(sink);
    }
    uint64_t t2 = now_ns(CLOCK_MONOTONIC);
    uint8_t ack = 1;
    write_all(c.fd, &ack, 1);
    json chk = r.verify();  // outside all timing
    if (check["ok"].get<bool>()) check = chk;
    if (i >= q.warmup) receive_ns.push_back(t1 - t0), decode_ns.push_back(t2 - t1);
    bytes = n;
  }
  emit_line({{"event", "transport_result"},
             {"role", "receive"},
             {"receive_ns", receive_ns},
             {"decode_ns", decode_ns},
             {"check", check},
             {"bytes", bytes}});
}

template <class T>
void send(Codec<T>& codec, const Request& q) {
  if (codec.no_encoder()) throw TransportError("unsupported", codec.no_encoder());
  CellRunner<T> r{codec, load_dataset<T>(q.data), {}, {}, {}, {}, 0, 0};
  codec.prepare(r.data.items);
  Fd c;
  c.fd = socket(AF_INET, SOCK_STREAM, 0);
  set_timeouts(c.fd, q.timeout);
  sockaddr_in a = address(q.host, q.port);
  if (connect(c.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw TransportError("io", "cannot connect to " + q.host + ":" + std::to_string(q.port));
  std::vector<uint64_t> encode_ns, send_ns, total_ns;
  Bytes out;
  for (int i = 0; i < q.warmup + q.repetitions; ++i) {
    uint64_t t0 = now_ns(CLOCK_MONOTONIC);
    r.encode_all(out);
    uint64_t t1 = now_ns(CLOCK_MONOTONIC);
    uint32_t n = static_cast<uint32_t>(out.size());
    uint8_t hdr[4] = {uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
    write_all(c.fd, hdr, 4);
    write_all(c.fd, out.data(), out.size());
    uint64_t t2 = now_ns(CLOCK_MONOTONIC);
    uint8_t ack;
    read_all(c.fd, &ack, 1);
    uint64_t t3 = now_ns(CLOCK_MONOTONIC);
    if (i >= q.warmup)
      encode_ns.push_back(t1 - t0), send_ns.push_back(t2 - t1), total_ns.push_back(t3 - t0);
  }
  emit_line({{"event", "transport_result"},
             {"role", "send"},
             {"encode_ns", encode_ns},
             {"send_ns", send_ns},
             {"total_ns", total_ns},
             {"bytes", out.size()}});
}

}  // namespace

int transport_main() {
  std::stringstream ss;
  ss << std::cin.rdbuf();
  try {
    Request q;
    try {
      json j = json::parse(ss.str());
      q.role = j.at("role").get<std::string>();
      q.serializer = j.at("serializer").get<std::string>();
      const json& d = j.at("dataset");
      q.dataset = d.at("name").get<std::string>();
      q.data = d.at("data").get<std::string>();
      if (d.value("kind", std::string("builtin")) != "builtin")
        throw TransportError("unsupported", "transport takes built-in datasets only");
      q.host = j.value("host", q.host);
      q.port = j.value("port", 0);
      q.repetitions = j.value("repetitions", q.repetitions);
      q.warmup = j.value("warmup", q.warmup);
      q.timeout = j.value("timeout", q.timeout);
    } catch (const TransportError&) {
      throw;
    } catch (const std::exception& ex) {
      throw TransportError("bad_request", ex.what());
    }
    const SerializerEntry* e = nullptr;
    for (const auto& x : registry())
      if (x.meta.name == q.serializer) e = &x;
    if (!e) throw TransportError("unknown_serializer", "unknown serializer " + q.serializer);
    DatasetId id;
    if (!dataset_from_name(q.dataset, id))
      throw TransportError("unknown_dataset", "unknown dataset " + q.dataset);
    auto base = e->make(id);
    if (!base) throw TransportError("not_applicable", e->reason(id));
    dispatch_dataset(id, [&](auto d) {
      using T = dataset_t<decltype(d)::value>;
      auto& codec = dynamic_cast<Codec<T>&>(*base);
      if (q.role == "receive") {
        receive(codec, q);
      } else if (q.role == "send") {
        send(codec, q);
      } else {
        throw TransportError("bad_request", "role must be send or receive");
      }
    });
  } catch (const TransportError& ex) {
    emit_line({{"event", "error"}, {"code", ex.code}, {"message", ex.what()}});
    return 1;
  } catch (const std::exception& ex) {
    emit_line({{"event", "error"}, {"code", "exception"}, {"message", ex.what()}});
    return 1;
  }
  return 0;
}

}  // namespace sb
