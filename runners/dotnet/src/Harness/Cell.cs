using System;
using System.Collections.Generic;
using System.IO;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>A prepared cell: the reply to `prepare` and the operations ready to sample.</summary>
    public sealed class Cell
    {
        public JObject Reply;
        public Dictionary<string, Action> Ops = new Dictionary<string, Action>();

        /// <summary>Kept for `transport` only: the cell's workload and a check of any bytes (null when equal).</summary>
        public Workload Work;
        public Func<byte[], string> CheckBytes;

        static readonly string[] Operations = { "encode", "decode", "encode+zlib", "zlib+decode", "encode+zstd", "zstd+decode", "encode+lz4", "lz4+decode" };

        public static bool IsOperation(string op)
        {
            return Array.IndexOf(Operations, op) >= 0;
        }

        public static JObject Failed(string cell, string status, string code, string message)
        {
            return new JObject
            {
                { "event", "prepared" }, { "cell", cell }, { "status", status }, { "check", null },
                { "messages", null }, { "sizes", null }, { "unsupported", new JArray() },
                { "error", new JObject { { "code", code }, { "message", message } } },
            };
        }

        /// <summary>
        /// Loads, encodes, decodes and checks; throws NotApplicableException, IOException (bad data).
        /// Without verify (an earlier process of the run checked the cell and holds its sizes) it
        /// only loads and encodes: no check data, decode, comparison or codec sizes.
        /// </summary>
        public static Cell Prepare(string cellId, Serializer ser, DatasetSpec spec, JObject dataset, List<string> operations, string dumpPath, string decodeFrom, bool keepCheck = false, bool verify = true)
        {
            verify |= decodeFrom != null; // checking another writer's bytes is the point of decode_from
            string data = (string)dataset["data"];
            string checkData = (string)dataset["check_data"] ?? data;
            Loaded loaded;
            List<object> expected = null;
            int expectedCount = 0;
            try
            {
                loaded = Datasets.Load(spec, data);
                if (verify)
                    expected = Datasets.Expected(spec, checkData, loaded, data, out expectedCount);
            }
            catch (NotApplicableException)
            {
                throw;
            }
            catch (Exception e)
            {
                throw new InvalidDataException(e.GetType().Name + ": " + e.Message, e);
            }
            Codec codec = ser.Bind(spec);
            codec.Prepare(loaded.Items);
            var work = new Workload(codec, loaded, null);
            byte[] encoded;
            if (decodeFrom != null)
            {
                encoded = File.ReadAllBytes(decodeFrom);
            }
            else
            {
                try
                {
                    encoded = work.Encode().ToArray();
                }
                catch (Exception e) when (e is IOException || e is OutOfMemoryException || e is ArgumentOutOfRangeException || e is NotSupportedException)
                {
                    if (!spec.Stream)
                        throw;
                    // .NET arrays, and so MemoryStream, are int-indexed: one buffer holds under 2 GiB.
                    throw new NotApplicableException(ser.Name + ": the encoded stream of " + loaded.Count + " messages does not fit one .NET buffer (2 GiB): " + Short(e));
                }
            }
            Func<object, object> canonical = spec.Canonical;
            string detail = verify ? Check(work, encoded, expected, expectedCount, decodeFrom != null, canonical) : null;
            bool ok = detail == null;
            if (ok && verify)
                detail = loaded.Count + " message(s) equal";
            var cell = new Cell();
            if (keepCheck)
            {
                cell.Work = work;
                cell.CheckBytes = bytes => Check(work, bytes, expected, expectedCount, true, canonical);
            }
            var reply = new JObject
            {
                { "event", "prepared" }, { "cell", cellId }, { "status", ok ? "ok" : "check_failed" },
                { "check", verify ? new JObject { { "ok", ok }, { "detail", detail } } : null }, { "messages", loaded.Count },
            };
            var sizes = new JObject { { "encoded", encoded.LongLength } };
            var unsupported = new JArray();
            if (decodeFrom != null)
            {
                foreach (string op in operations)
                {
                    if (op != "decode")
                        unsupported.Add(op);
                }
                if (ok && operations.Contains("decode"))
                    cell.Ops["decode"] = () => work.DecodeToSink(encoded, encoded.Length);
            }
            else
            {
                if (dumpPath != null)
                    File.WriteAllBytes(dumpPath, encoded);
                if (verify)
                {
                    foreach (string c in Compressor.Names)
                        sizes[c] = new Workload(codec, loaded, Compressor.Create(c)).CompressedSize(encoded);
                }
                if (ok)
                {
                    foreach (string op in operations)
                        cell.Ops[op] = Operation(op, work, codec, loaded, encoded);
                }
            }
            reply["sizes"] = sizes;
            reply["unsupported"] = unsupported;
            reply["error"] = null;
            cell.Reply = reply;
            return cell;
        }

        static Action Operation(string op, Workload work, Codec codec, Loaded loaded, byte[] encoded)
        {
            if (op == "encode")
                return () => Sink.Consume(work.Encode());
            if (op == "decode")
                return () => work.DecodeToSink(encoded, encoded.Length);
            string[] parts = op.Split('+');
            if (parts[0] == "encode")
            {
                var w = new Workload(codec, loaded, Compressor.Create(parts[1]));
                return () => Sink.Consume(w.Encode());
            }
            var packedWork = new Workload(codec, loaded, Compressor.Create(parts[0]));
            byte[] packed = packedWork.Encode().ToArray();
            return () => packedWork.DecodeToSink(packed, packed.Length);
        }

        /// <summary>Decodes every message and compares it with check_data; null when all are equal.</summary>
        static string Check(Workload work, byte[] encoded, List<object> expected, int count, bool foreign, Func<object, object> canonical)
        {
            string diff = null;
            int seen = 0;
            try
            {
                work.Decode(encoded, encoded.Length, true, (i, m) =>
                {
                    seen = i + 1;
                    if (diff != null)
                        return;
                    string d = Canon.Diff(expected[i % expected.Count], canonical(m), "$");
                    if (d != null)
                        diff = count > 1 ? "message " + i + ": " + d : d;
                });
            }
            catch (Exception e)
            {
                if (foreign)
                    return "cannot decode: " + Short(e);
                return "decode failed: " + Short(e);
            }
            if (diff != null)
                return diff;
            if (seen != count)
                return "decoded " + seen + " messages, expected " + count;
            return null;
        }

        public static string Short(Exception e)
        {
            while (e.InnerException != null && (e is System.Reflection.TargetInvocationException || e is InvalidOperationException))
                e = e.InnerException;
            string s = e.GetType().Name + ": " + e.Message;
            return s.Length > 400 ? s.Substring(0, 400) : s;
        }
    }
}
