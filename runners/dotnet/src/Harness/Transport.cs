using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>A transport failure: the error event's code and message.</summary>
    sealed class TransportFailure : Exception
    {
        public readonly string Code;

        public TransportFailure(string code, string message)
            : base(message)
        {
            Code = code;
        }
    }

    /// <summary>
    /// `transport`: one side of S3 over a loopback TCP connection (docs/runner-protocol.md
    /// section 9). A frame is a 4-byte big-endian length and one encode of the dataset (a
    /// stream framed as in section 6). The cell is prepared, and so checked, before the
    /// socket opens; nothing but the timed phases happens between the clock reads.
    /// </summary>
    public static class Transport
    {
        public static int Run(TextReader input, TextWriter output)
        {
            try
            {
                JObject result = Side(input.ReadToEnd(), output);
                output.WriteLine(result.ToString(Formatting.None));
                return 0;
            }
            catch (TransportFailure e)
            {
                return Fail(output, e.Code, e.Message);
            }
            catch (SocketException e)
            {
                return Fail(output, e.SocketErrorCode == SocketError.TimedOut ? "timeout" : "exception", Cell.Short(e));
            }
            catch (Exception e)
            {
                return Fail(output, "exception", Cell.Short(e));
            }
        }

        static int Fail(TextWriter output, string code, string message)
        {
            output.WriteLine(new JObject { { "event", "error" }, { "code", code }, { "message", message } }.ToString(Formatting.None));
            return 1;
        }

        static JObject Side(string text, TextWriter output)
        {
            JObject req;
            try
            {
                using (var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None })
                    req = JToken.ReadFrom(reader) as JObject;
            }
            catch (JsonException e)
            {
                throw new TransportFailure("bad_request", "not a transport request: " + e.Message);
            }
            string role = req == null ? null : (string)req["role"];
            if (role != "send" && role != "receive" || !(req["dataset"] is JObject) || req["port"] == null)
                throw new TransportFailure("bad_request", "a transport request needs role (send or receive), serializer, dataset, host and port");
            var prepare = new JObject
            {
                { "cmd", "prepare" }, { "cell", "transport" }, { "serializer", req["serializer"] },
                { "dataset", req["dataset"] }, { "operations", new JArray("encode", "decode") },
            };
            Cell cell;
            JObject reply = new Server().Open(prepare, "transport", true, out cell);
            if (cell == null)
            {
                JToken error = reply["error"];
                if (error != null && error.Type == JTokenType.Object)
                    throw new TransportFailure((string)error["code"], (string)error["message"]);
                throw new TransportFailure("exception", "the round trip failed its check: " + reply["check"]["detail"]);
            }
            long deadline = Clocks.WallNs() + (long)(Number(req, "timeout", 120) * 1e9);
            int warmup = (int)Number(req, "warmup", 2);
            int total = warmup + (int)Number(req, "repetitions", 5);
            string host = (string)req["host"] ?? "127.0.0.1";
            int port = (int)req["port"];
            return role == "receive"
                ? Receive(cell, host, port, total, warmup, deadline, output)
                : Send(cell, host, port, total, warmup, deadline);
        }

        static double Number(JObject req, string field, double fallback)
        {
            JToken t = req[field];
            return t == null || t.Type == JTokenType.Null ? fallback : (double)t;
        }

        static int RemainingMs(long deadline)
        {
            long ms = (deadline - Clocks.WallNs()) / 1000000;
            if (ms <= 0)
                throw new TransportFailure("timeout", "the transport's time limit passed");
            return (int)Math.Min(ms, int.MaxValue);
        }

        static JObject Receive(Cell cell, string host, int port, int total, int warmup, long deadline, TextWriter output)
        {
            var listener = new TcpListener(IPAddress.Parse(host), port);
            listener.Start(1);
            try
            {
                output.WriteLine(new JObject { { "event", "listening" }, { "port", ((IPEndPoint)listener.LocalEndpoint).Port } }.ToString(Formatting.None));
                if (!listener.Server.Poll((int)Math.Min(RemainingMs(deadline) * 1000L, int.MaxValue), SelectMode.SelectRead))
                    throw new TransportFailure("timeout", "no sender connected before the time limit");
                using (Socket conn = listener.AcceptSocket())
                {
                    conn.NoDelay = true;
                    var receiveNs = new List<long>();
                    var decodeNs = new List<long>();
                    var header = new byte[4];
                    var ack = new byte[] { 1 };
                    byte[] payload = new byte[1 << 16];
                    int length = 0;
                    for (int i = 0; i < total; i++)
                    {
                        conn.ReceiveTimeout = RemainingMs(deadline);
                        ReadFull(conn, header, 4);
                        length = (header[0] << 24) | (header[1] << 16) | (header[2] << 8) | header[3];
                        if (length < 0)
                            throw new TransportFailure("exception", "frame " + i + ": length beyond 2 GiB");
                        long t0 = Clocks.WallNs();
                        if (payload.Length < length)
                            payload = new byte[length];
                        ReadFull(conn, payload, length);
                        long t1 = Clocks.WallNs();
                        string failure = null;
                        try
                        {
                            cell.Work.DecodeToSink(payload, length);
                        }
                        catch (Exception e)
                        {
                            failure = "cannot decode frame " + i + ": " + Cell.Short(e);
                        }
                        long t2 = Clocks.WallNs();
                        conn.Send(ack);
                        if (failure != null)
                            throw new TransportFailure("exception", failure);
                        if (i >= warmup)
                        {
                            receiveNs.Add(Math.Max(1, t1 - t0));
                            decodeNs.Add(Math.Max(1, t2 - t1));
                        }
                    }
                    var last = new byte[length];
                    Buffer.BlockCopy(payload, 0, last, 0, length);
                    string diff = cell.CheckBytes(last);
                    return new JObject
                    {
                        { "event", "transport_result" }, { "role", "receive" },
                        { "receive_ns", new JArray(receiveNs) }, { "decode_ns", new JArray(decodeNs) },
                        { "check", new JObject { { "ok", diff == null }, { "detail", diff ?? cell.Work.Count + " message(s) equal" } } },
                        { "bytes", length },
                    };
                }
            }
            finally
            {
                listener.Stop();
            }
        }

        static JObject Send(Cell cell, string host, int port, int total, int warmup, long deadline)
        {
            using (var conn = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            {
                conn.NoDelay = true;
                IAsyncResult connecting = conn.BeginConnect(host, port, null, null);
                if (!connecting.AsyncWaitHandle.WaitOne(RemainingMs(deadline)))
                    throw new TransportFailure("timeout", "could not connect to " + host + ":" + port + " before the time limit");
                conn.EndConnect(connecting);
                var encodeNs = new List<long>();
                var sendNs = new List<long>();
                var totalNs = new List<long>();
                var header = new byte[4];
                var ack = new byte[1];
                var parts = new List<ArraySegment<byte>>(2);
                long length = 0;
                for (int i = 0; i < total; i++)
                {
                    conn.SendTimeout = conn.ReceiveTimeout = RemainingMs(deadline);
                    long t0 = Clocks.WallNs();
                    MemoryStream encoded = cell.Work.Encode();
                    long t1 = Clocks.WallNs();
                    length = encoded.Length;
                    header[0] = (byte)(length >> 24);
                    header[1] = (byte)(length >> 16);
                    header[2] = (byte)(length >> 8);
                    header[3] = (byte)length;
                    parts.Clear();
                    parts.Add(new ArraySegment<byte>(header));
                    parts.Add(new ArraySegment<byte>(encoded.GetBuffer(), 0, (int)length));
                    SendAll(conn, parts, 4 + (int)length);
                    long t2 = Clocks.WallNs();
                    ReadFull(conn, ack, 1);
                    long t3 = Clocks.WallNs();
                    if (i >= warmup)
                    {
                        encodeNs.Add(Math.Max(1, t1 - t0));
                        sendNs.Add(Math.Max(1, t2 - t1));
                        totalNs.Add(Math.Max(1, t3 - t0));
                    }
                }
                return new JObject
                {
                    { "event", "transport_result" }, { "role", "send" }, { "encode_ns", new JArray(encodeNs) },
                    { "send_ns", new JArray(sendNs) }, { "total_ns", new JArray(totalNs) }, { "bytes", length },
                };
            }
        }

        /// <summary>A gathering send (header and payload, no copy), continued until every byte is out.</summary>
        static void SendAll(Socket conn, List<ArraySegment<byte>> parts, int count)
        {
            int sent = conn.Send(parts);
            while (sent < count)
            {
                int skip = sent;
                ArraySegment<byte> part = parts[0];
                if (skip >= part.Count)
                {
                    skip -= part.Count;
                    part = parts[1];
                }
                sent += conn.Send(part.Array, part.Offset + skip, part.Count - skip, SocketFlags.None);
            }
        }

        static void ReadFull(Socket conn, byte[] buffer, int count)
        {
            int got = 0;
            while (got < count)
            {
                int n = conn.Receive(buffer, got, count - got, SocketFlags.None);
                if (n == 0)
                    throw new TransportFailure("exception", "the connection closed after " + got + " of " + count + " bytes");
                got += n;
            }
        }
    }
}
