using System;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>
    /// A user dataset's type file (datasets/README.md plus protocol section 7): builds the
    /// generic value tree (Json.NET's JToken) from a canonical item with the declared types
    /// applied, and brings a decoded tree back to the check's form through the same types.
    /// </summary>
    public sealed class UserTypes
    {
        readonly JObject named;

        UserTypes(JObject named)
        {
            this.named = named ?? new JObject();
        }

        public static DatasetSpec Spec(JObject dataset)
        {
            JObject file = Datasets.ReadJson((string)dataset["types"]);
            var types = new UserTypes(file["types"] as JObject);
            JToken message = file["message"];
            string expr = message.Type == JTokenType.Object ? (string)message[(string)dataset["name"]] : (string)message;
            if (expr == null)
                throw new FormatException("types file names no message type for " + dataset["name"]);
            var spec = new DatasetSpec { Name = (string)dataset["name"], User = true, Types = types, TypeExpr = expr, RootType = typeof(JToken) };
            spec.Build = t => types.Native((JToken)t, expr, "$");
            spec.Canonical = m => types.Canonical((JToken)m, expr);
            JObject head = Datasets.ReadJson((string)dataset["data"]);
            spec.Stream = (string)head["framing"] == "stream";
            return spec;
        }

        static string Inner(string type, string prefix)
        {
            return type.StartsWith(prefix, StringComparison.Ordinal) && type.EndsWith(">", StringComparison.Ordinal)
                ? type.Substring(prefix.Length, type.Length - prefix.Length - 1)
                : null;
        }

        JObject Named(string type)
        {
            var n = named[type] as JObject;
            if (n == null)
                throw new FormatException("unknown type " + type);
            return n;
        }

        public bool RootIsList(string type)
        {
            return Inner(type, "list<") != null;
        }

        /// <summary>The native generic tree: a JToken whose values carry the declared types.</summary>
        public JToken Native(JToken t, string type, string path)
        {
            if (t.Type == JTokenType.Null && (type == "null" || type.StartsWith("optional<", StringComparison.Ordinal) || type == "any"))
                return JValue.CreateNull();
            string inner;
            if ((inner = Inner(type, "optional<")) != null)
                return Native(t, inner, path);
            if ((inner = Inner(type, "list<")) != null)
            {
                var a = new JArray();
                int i = 0;
                foreach (JToken e in (JArray)t)
                    a.Add(Native(e, inner, path + "[" + i++ + "]"));
                return a;
            }
            if ((inner = Inner(type, "map<string,")) != null)
            {
                var o = new JObject();
                foreach (JProperty p in ((JObject)t).Properties())
                    o.Add(p.Name, Native(p.Value, inner, path + "." + p.Name));
                return o;
            }
            switch (type)
            {
                case "any":
                    return t.DeepClone();
                case "string":
                    return new JValue((string)t);
                case "bool":
                    return new JValue((bool)t);
                case "int32":
                case "uint32":
                case "int64":
                case "uint64":
                case "bigint":
                    return new JValue(Canon.Int(((JValue)t).Value));
                case "float64":
                    return new JValue(Double(t));
                case "float32":
                    return new JValue((float)Double(t));
                case "bytes":
                    return new JValue(Convert.FromBase64String((string)t));
                case "timestamp_ms":
                    return new JValue(Datasets.Epoch.AddMilliseconds((long)t));
            }
            JObject def = Named(type);
            if (def["enum"] != null)
                return new JValue((long)t);
            var rec = new JObject();
            foreach (JArray field in (JArray)def["record"])
            {
                string name = (string)field[0];
                JToken v = t[name];
                rec.Add(name, Native(v ?? JValue.CreateNull(), (string)field[1], path + "." + name));
            }
            return rec;
        }

        static double Double(JToken t)
        {
            if (t.Type == JTokenType.String)
            {
                switch ((string)t)
                {
                    case "NaN":
                        return double.NaN;
                    case "Infinity":
                        return double.PositiveInfinity;
                    case "-Infinity":
                        return double.NegativeInfinity;
                }
                return double.Parse((string)t, CultureInfo.InvariantCulture);
            }
            return (double)t;
        }

        /// <summary>The check's form of a value (canonical or decoded) read through its declared type.</summary>
        public object Canonical(JToken t, string type)
        {
            if (t == null)
                return "(missing)";
            if (t.Type == JTokenType.Null)
                return null;
            string inner;
            if ((inner = Inner(type, "optional<")) != null)
                return Canonical(t, inner);
            if ((inner = Inner(type, "list<")) != null)
            {
                var a = t as JArray;
                if (a == null)
                    return Canon.OfJson(t);
                var list = new List<object>(a.Count);
                foreach (JToken e in a)
                    list.Add(Canonical(e, inner));
                return list;
            }
            if ((inner = Inner(type, "map<string,")) != null)
            {
                var o = t as JObject;
                if (o == null)
                    return Canon.OfJson(t);
                var map = new Dictionary<string, object>();
                foreach (JProperty p in o.Properties())
                    map[p.Name] = Canonical(p.Value, inner);
                return map;
            }
            switch (type)
            {
                case "any":
                case "string":
                case "bool":
                case "null":
                    return Canon.OfJson(t);
                case "int32":
                case "uint32":
                case "int64":
                case "uint64":
                case "bigint":
                    return t.Type == JTokenType.Integer ? Canon.Int(((JValue)t).Value) : Canon.OfJson(t);
                case "float64":
                case "float32":
                    if (t.Type != JTokenType.Float && t.Type != JTokenType.Integer && t.Type != JTokenType.String)
                        return Canon.OfJson(t);
                    double d = Double(t);
                    return type == "float32" ? (double)(float)d : d;
                case "bytes":
                    if (t.Type == JTokenType.String)
                        return Convert.FromBase64String((string)t); // JSON carries bytes as base64
                    return Canon.OfJson(t);
                case "timestamp_ms":
                    if (t.Type == JTokenType.String) // JSON carries date-times as ISO 8601
                        return Canon.Millis(DateTime.Parse((string)t, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind));
                    return Canon.OfJson(t);
            }
            JObject def = Named(type);
            if (def["enum"] != null)
                return Canon.OfJson(t);
            var obj = t as JObject;
            if (obj == null)
                return Canon.OfJson(t);
            var rec = new Dictionary<string, object>();
            foreach (JArray field in (JArray)def["record"])
                rec[(string)field[0]] = Canonical(obj[(string)field[0]], (string)field[1]);
            foreach (JProperty p in obj.Properties())
            {
                if (!rec.ContainsKey(p.Name))
                    rec[p.Name] = Canon.OfJson(p.Value);
            }
            return rec;
        }

        /// <summary>
        /// RequireBson on Canon's form: a typed row's message through its generated ToCanon
        /// (integers are long, BigInteger only beyond int64).
        /// </summary>
        public static void RequireBsonCanon(object c, string path)
        {
            if (path == "$" && !(c is Dictionary<string, object>) && !(c is List<object>))
                throw new NotApplicableException("bson: the message at $ is " + (c == null ? "null" : "a " + c.GetType().Name) + "; a BSON document is a map or an array");
            if (c is BigInteger)
                throw new NotApplicableException("bson: " + c + " at " + path + " exceeds int64 (BSON has no unsigned or arbitrary-precision integer)");
            var list = c as List<object>;
            if (list != null)
            {
                for (int i = 0; i < list.Count; i++)
                    RequireBsonCanon(list[i], path + "[" + i + "]");
            }
            var map = c as Dictionary<string, object>;
            if (map != null)
            {
                foreach (KeyValuePair<string, object> p in map)
                {
                    if (p.Key.IndexOf('\0') >= 0)
                        throw new NotApplicableException("bson: key with NUL at " + path + " (BSON keys are C strings)");
                    RequireBsonCanon(p.Value, path + "." + p.Key);
                }
            }
        }

        /// <summary>BSON: a document or array at the root, integers within int64.</summary>
        public static void RequireBson(JToken t, string path)
        {
            if (path == "$" && t.Type != JTokenType.Object && t.Type != JTokenType.Array)
                throw new NotApplicableException("bson: the message at $ is a " + t.Type.ToString().ToLowerInvariant() + "; a BSON document is a map or an array");
            if (t.Type == JTokenType.Integer)
            {
                object v = ((JValue)t).Value;
                if (v is BigInteger || (v is ulong && (ulong)v > long.MaxValue))
                    throw new NotApplicableException("bson: " + v + " at " + path + " exceeds int64 (BSON has no unsigned or arbitrary-precision integer)");
            }
            var a = t as JArray;
            if (a != null)
            {
                for (int i = 0; i < a.Count; i++)
                    RequireBson(a[i], path + "[" + i + "]");
            }
            var o = t as JObject;
            if (o != null)
            {
                foreach (JProperty p in o.Properties())
                {
                    if (p.Name.IndexOf('\0') >= 0)
                        throw new NotApplicableException("bson: key with NUL at " + path + " (BSON keys are C strings)");
                    RequireBson(p.Value, path + "." + p.Name);
                }
            }
        }
    }
}
