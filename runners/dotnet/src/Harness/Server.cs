using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    sealed class BadRequest : Exception
    {
        public BadRequest(string message)
            : base(message)
        {
        }
    }

    /// <summary>`serve`: one reply per command (docs/runner-protocol.md section 4).</summary>
    public sealed class Server
    {
        readonly Dictionary<string, Cell> cells = new Dictionary<string, Cell>();
        readonly Untrusted untrusted = new Untrusted();

        public JObject Handle(string line)
        {
            JObject cmd;
            try
            {
                using (var reader = new JsonTextReader(new StringReader(line)) { DateParseHandling = DateParseHandling.None })
                    cmd = JToken.ReadFrom(reader) as JObject;
                if (cmd == null)
                    throw new JsonException("a command is a JSON object");
            }
            catch (JsonException e)
            {
                return Error("bad_request", "not a command: " + e.Message, null);
            }
            string kind = Str(cmd, "cmd", false);
            string cell = Str(cmd, "cell", false);
            // outside the catch-all below: an untrusted input's fatal exception must end the process
            if (Untrusted.IsCommand(kind))
                return untrusted.Handle(cmd);
            try
            {
                switch (kind)
                {
                    case "prepare":
                        return Prepare(cmd, Str(cmd, "cell", true));
                    case "sample":
                        {
                            Action op = Op(cmd, cell);
                            int iterations = Int(cmd, "iterations");
                            int samples = Int(cmd, "samples");
                            int untimed = cmd["untimed"] == null ? 0 : NonNegative(cmd, "untimed");
                            Sampler.Result r = Sampler.Run(op, iterations, samples, untimed);
                            return new JObject
                            {
                                { "event", "samples" }, { "cell", cell }, { "operation", (string)cmd["operation"] },
                                { "iterations", iterations }, { "wall_ns", new JArray(r.Wall) }, { "cpu_ns", new JArray(r.Cpu) },
                                { "alloc_bytes", new JArray(r.Alloc) }, { "alloc_count", null }, { "gc_count", new JArray(r.Gc) },
                                { "gc_ns", null }, { "compile_ns", null },
                            };
                        }
                    case "peak_alloc":
                        {
                            Action op = Op(cmd, cell);
                            return new JObject
                            {
                                { "event", "peak_alloc" }, { "cell", cell }, { "operation", (string)cmd["operation"] },
                                { "bytes", Sampler.PeakAlloc(op) },
                            };
                        }
                    case "release":
                        Str(cmd, "cell", true);
                        cells.Remove(cell);
                        return new JObject { { "event", "released" }, { "cell", cell } };
                    case "quit":
                        return new JObject { { "event", "bye" } };
                    default:
                        throw new BadRequest("unknown cmd " + JsonConvert.ToString(kind) + "; valid: prepare, sample, peak_alloc, release, quit, untrusted_decode, untrusted_encode");
                }
            }
            catch (BadRequest e)
            {
                return Error("bad_request", e.Message, null);
            }
            catch (KeyNotFoundException)
            {
                return Error("unknown_cell", "cell " + JsonConvert.ToString(cell) + " with operation " + cmd["operation"] + " is not prepared (or did not pass its check)", cell);
            }
            catch (Exception e)
            {
                return Error("exception", Cell.Short(e), cell);
            }
        }

        JObject Prepare(JObject cmd, string cellId)
        {
            Cell cell;
            JObject reply = Open(cmd, cellId, false, out cell);
            if (cell != null)
                cells[cellId] = cell;
            return reply;
        }

        /// <summary>
        /// Resolves and prepares a cell as `prepare` does (also for `transport`); the reply, and
        /// the cell when it passed its check. keepCheck keeps what re-checking other bytes needs.
        /// </summary>
        public JObject Open(JObject cmd, string cellId, bool keepCheck, out Cell prepared)
        {
            prepared = null;
            string name = Str(cmd, "serializer", true);
            var dataset = cmd["dataset"] as JObject;
            if (dataset == null)
                throw new BadRequest("missing field dataset");
            string dsName = Str(dataset, "name", true);
            Str(dataset, "data", true);
            var opsToken = cmd["operations"] as JArray;
            if (opsToken == null || opsToken.Count == 0)
                throw new BadRequest("missing field operations");
            List<string> operations = opsToken.Select(t => (string)t).ToList();
            foreach (string op in operations)
            {
                if (!Cell.IsOperation(op))
                    throw new BadRequest("unknown operation " + op);
            }
            cells.Remove(cellId);
            Serializer ser = Registry.Find(name);
            if (ser == null)
                return Cell.Failed(cellId, "error", "unknown_serializer", "unknown serializer " + JsonConvert.ToString(name) + "; valid: " + string.Join(", ", Registry.All.Select(s => s.Name)));
            DatasetSpec spec;
            bool user = (string)dataset["kind"] == "user";
            if (user)
            {
                try
                {
                    spec = UserTypes.Spec(dataset);
                }
                catch (Exception e)
                {
                    return Cell.Failed(cellId, "error", "bad_data", Cell.Short(e));
                }
                if (!ser.GenericTree)
                {
                    TypedMessage typed = TypedModels.User(dsName, (string)dataset["types"]);
                    if (typed == null)
                        return Cell.Failed(cellId, "not_applicable", "not_applicable", ser.Name + ": " + TypedModels.NotBuilt);
                    spec = TypedModels.UserSpec(spec, typed);
                }
            }
            else
            {
                spec = Datasets.Builtin(dsName);
                if (spec == null)
                    return Cell.Failed(cellId, "error", "unknown_dataset", "unknown dataset " + JsonConvert.ToString(dsName) + "; valid: " + string.Join(", ", Datasets.Names));
            }
            string why = spec.Typed != null ? ser.NotApplicable(spec) : null;
            if (why != null)
                return Cell.Failed(cellId, "not_applicable", "not_applicable", why);
            try
            {
                Cell cell = Cell.Prepare(cellId, ser, spec, dataset, operations, (string)cmd["dump_path"], (string)cmd["decode_from"], keepCheck, Bool(cmd, "verify", true));
                if ((string)cell.Reply["status"] == "ok")
                    prepared = cell;
                return cell.Reply;
            }
            catch (NotApplicableException e)
            {
                return Cell.Failed(cellId, "not_applicable", "not_applicable", e.Message);
            }
            catch (InvalidDataException e)
            {
                return Cell.Failed(cellId, "error", "bad_data", e.Message);
            }
            catch (Exception e)
            {
                return Cell.Failed(cellId, "error", "exception", Cell.Short(e));
            }
        }

        Action Op(JObject cmd, string cell)
        {
            Str(cmd, "cell", true);
            string op = Str(cmd, "operation", true);
            if (!Cell.IsOperation(op))
                throw new BadRequest("unknown operation " + op);
            Cell c;
            Action a;
            if (!cells.TryGetValue(cell, out c) || !c.Ops.TryGetValue(op, out a))
                throw new KeyNotFoundException(cell);
            return a;
        }

        static string Str(JObject o, string field, bool required)
        {
            JToken t = o[field];
            if (t == null || t.Type != JTokenType.String)
            {
                if (required)
                    throw new BadRequest("missing field " + field);
                return null;
            }
            return (string)t;
        }

        /// <summary>An optional boolean; like Str's optional fields, any other value is ignored.</summary>
        static bool Bool(JObject o, string field, bool fallback)
        {
            JToken t = o[field];
            return t != null && t.Type == JTokenType.Boolean ? (bool)t : fallback;
        }

        static int Int(JObject o, string field)
        {
            JToken t = o[field];
            if (t == null || t.Type != JTokenType.Integer || (long)t < 1 || (long)t > int.MaxValue)
                throw new BadRequest(field + " must be a positive integer");
            return (int)t;
        }

        static int NonNegative(JObject o, string field)
        {
            JToken t = o[field];
            if (t == null || t.Type != JTokenType.Integer || (long)t < 0 || (long)t > int.MaxValue)
                throw new BadRequest(field + " must be a non-negative integer");
            return (int)t;
        }

        static JObject Error(string code, string message, string cell)
        {
            var e = new JObject { { "event", "error" }, { "code", code }, { "message", message } };
            if (cell != null)
                e["cell"] = cell;
            return e;
        }
    }
}
