using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>
    /// Bytes this runner did not write (docs/runner-protocol.md section 11): untrusted_decode
    /// and untrusted_encode. No policy lives here: limits, deadlines and classification are
    /// the orchestrator's.
    ///
    /// Only the exception types a library documents for bad input answer "rejected"
    /// (UntrustedDecoders); any other exception answers "error". OutOfMemoryException,
    /// StackOverflowException and ThreadAbortException are never caught: Mono raises the
    /// first when the heap limit (MONO_GC_PARAMS=max-heap-size) or an impossible array size
    /// is hit, and the runtime is not in a state to trust afterwards; Mono raises a
    /// StackOverflowException only in some frames and aborts in others. They end the process (an unhandled
    /// exception, exit code 1, its name on stderr) and the orchestrator finds the input by
    /// bisecting the batch.
    /// </summary>
    public sealed class Untrusted
    {
        /// <summary>A serializer bound to a built-in dataset's model, kept across commands.</summary>
        sealed class Typed
        {
            public Codec Codec;
            public DatasetSpec Spec;
            public Loaded Loaded;
        }

        sealed class Refusal : Exception
        {
            public readonly string Code;

            public Refusal(string code, string message)
                : base(message)
            {
                Code = code;
            }
        }

        // comparing with every distinct message of a long stream would cost more than the decode
        const int MaxCompared = 64;

        readonly Dictionary<string, Typed> typed = new Dictionary<string, Typed>();

        public static bool IsCommand(string cmd)
        {
            return cmd == "untrusted_decode" || cmd == "untrusted_encode";
        }

        public static bool IsFatal(Exception e)
        {
            return e is OutOfMemoryException || e is StackOverflowException || e is ThreadAbortException;
        }

        /// <summary>
        /// The exception a library threw through its own reflection (the DataContract
        /// serializers call setters and callbacks by MethodInfo.Invoke, which wraps what they
        /// throw in TargetInvocationException): classified as itself.
        /// </summary>
        public static Exception Unwrap(Exception e)
        {
            while (e is System.Reflection.TargetInvocationException && e.InnerException != null)
                e = e.InnerException;
            return e;
        }

        public JObject Handle(JObject cmd)
        {
            string cell = cmd["cell"] != null && cmd["cell"].Type == JTokenType.String ? (string)cmd["cell"] : null;
            try
            {
                if (cell == null)
                    throw new Refusal("bad_request", "missing field cell");
                string name = cmd["serializer"] != null && cmd["serializer"].Type == JTokenType.String ? (string)cmd["serializer"] : null;
                Serializer ser = Registry.Find(name ?? "");
                if (ser == null)
                    throw new Refusal("unknown_serializer", "unknown serializer " + JsonConvert.ToString(name) + "; valid: " + string.Join(", ", Registry.All.ConvertAll(s => s.Name)));
                UntrustedDecoder decoder = UntrustedDecoders.For(ser.Name);
                if (decoder.Unsupported != null)
                    throw new Refusal("unsupported", decoder.Unsupported);
                var dataset = cmd["dataset"] as JObject;
                if ((string)cmd["cmd"] == "untrusted_encode")
                    return new JObject { { "event", "untrusted_encoded" }, { "cell", cell }, { "b64", Convert.ToBase64String(Encode(ser, decoder, dataset, cmd)) } };
                Func<byte[], JToken> decode;
                if (dataset != null)
                {
                    Typed t = Bind(ser, dataset);
                    decode = b => DecodeTyped(t, b);
                }
                else
                {
                    if (decoder.Generic == null)
                        throw new Refusal("unsupported", ser.Name + " has no generic-value decode: name a dataset");
                    decode = decoder.Generic;
                }
                return new JObject { { "event", "untrusted_decoded" }, { "cell", cell }, { "outcomes", DecodeAll(cmd, decode, decoder) } };
            }
            catch (Refusal r)
            {
                return Error(r.Code, r.Message, cell);
            }
            catch (Exception e) when (!IsFatal(e))
            {
                return Error("exception", Cell.Short(e), cell);
            }
        }

        static JArray DecodeAll(JObject cmd, Func<byte[], JToken> decode, UntrustedDecoder decoder)
        {
            var inputs = cmd["inputs"] as JArray;
            if (inputs == null)
                throw new Refusal("bad_request", "missing field inputs");
            var outcomes = new JArray();
            foreach (JToken item in inputs)
            {
                string id = (string)item["id"];
                byte[] bytes = Input(item);
                var outcome = new JObject { { "id", id } };
                long start = Clocks.WallNs();
                try
                {
                    JToken value = decode(bytes);
                    outcome["outcome"] = "accepted";
                    outcome["value"] = value;
                }
                catch (Exception caught) when (!IsFatal(Unwrap(caught)))
                {
                    Exception e = Unwrap(caught);
                    outcome["outcome"] = decoder.IsRejection(e) ? "rejected" : "error";
                    string text = e.GetType().Name + ": " + e.Message;
                    outcome["error"] = text.Length > 300 ? text.Substring(0, 300) : text;
                }
                outcome["ns"] = Math.Max(0, Clocks.WallNs() - start);
                outcomes.Add(outcome);
            }
            return outcomes;
        }

        static byte[] Input(JToken item)
        {
            var path = item["path"];
            try
            {
                if (path != null)
                    return File.ReadAllBytes((string)path);
                string b64 = (string)item["b64"];
                if (b64 == null)
                    throw new Refusal("bad_request", "input " + item["id"] + " has neither b64 nor path");
                return Convert.FromBase64String(b64);
            }
            catch (Exception e) when (e is IOException || e is FormatException || e is UnauthorizedAccessException)
            {
                throw new Refusal("bad_request", "input " + item["id"] + ": " + Cell.Short(e));
            }
        }

        /// <summary>
        /// The library's decode of one message with the dataset's model, rendered as whether it
        /// equals one of the dataset's messages, or the first difference from message 0.
        /// </summary>
        static JToken DecodeTyped(Typed t, byte[] bytes)
        {
            object message = t.Codec.Decode(bytes, 0, bytes.Length);
            object canon;
            try
            {
                canon = t.Spec.Canonical(message);
            }
            catch (Exception e) when (!IsFatal(e))
            {
                // the library accepted it; this runner's model conversion could not read it
                return CanonicalJson.Other("does not fit the model: " + Cell.Short(e));
            }
            List<object> expected = t.Loaded.Generic;
            for (int i = 0; i < Math.Min(expected.Count, MaxCompared); i++)
            {
                if (Canon.Diff(expected[i], canon, "$") == null)
                    return new JObject { { "$check", i == 0 ? "equal" : "equal to message " + i } };
            }
            return new JObject { { "$check", Canon.Diff(expected[0], canon, "$") } };
        }

        byte[] Encode(Serializer ser, UntrustedDecoder decoder, JObject dataset, JObject cmd)
        {
            if (dataset != null)
            {
                Typed t = Bind(ser, dataset);
                JToken m = cmd["message"];
                long index = m != null && m.Type == JTokenType.Integer ? (long)m : 0;
                if (index < 0)
                    throw new Refusal("bad_request", "message must be a non-negative integer");
                var output = new MemoryStream();
                t.Codec.Encode(t.Loaded.Items[(int)(index % t.Loaded.Items.Count)], output);
                return output.ToArray();
            }
            if (decoder.Encode == null)
                throw new Refusal("unsupported", ser.Name + " does not encode generic values here: name a dataset");
            if (cmd["value"] == null)
                throw new Refusal("bad_request", "untrusted_encode needs value or dataset");
            try
            {
                return decoder.Encode(cmd["value"]);
            }
            catch (NotCarriedException e)
            {
                throw new Refusal("not_applicable", ser.Name + ": " + e.Message);
            }
        }

        /// <summary>The serializer's codec on a built-in dataset, bound once per data file.</summary>
        Typed Bind(Serializer ser, JObject dataset)
        {
            string name = (string)dataset["name"];
            string data = (string)dataset["data"];
            if (name == null || data == null)
                throw new Refusal("bad_request", "dataset needs name and data");
            if ((string)dataset["kind"] == "user")
                throw new Refusal("unsupported", "untrusted input against a user dataset's types is not supported here yet");
            string key = ser.Name + "\n" + data;
            Typed t;
            if (typed.TryGetValue(key, out t))
                return t;
            DatasetSpec spec = Datasets.Builtin(name);
            if (spec == null)
                throw new Refusal("unknown_dataset", "unknown dataset " + JsonConvert.ToString(name) + "; valid: " + string.Join(", ", Datasets.Names));
            string why = ser.NotApplicable(spec);
            if (why != null)
                throw new Refusal("not_applicable", why);
            t = new Typed { Spec = spec };
            try
            {
                t.Loaded = Datasets.Load(spec, data);
            }
            catch (Exception e) when (!IsFatal(e))
            {
                throw new Refusal("bad_data", data + ": " + Cell.Short(e));
            }
            try
            {
                t.Codec = ser.Bind(spec);
            }
            catch (NotApplicableException e)
            {
                throw new Refusal("not_applicable", e.Message);
            }
            t.Codec.Prepare(t.Loaded.Items);
            typed[key] = t;
            return t;
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
