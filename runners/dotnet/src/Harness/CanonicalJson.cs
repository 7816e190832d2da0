using System;
using System.Globalization;
using System.Linq;
using System.Numerics;
using System.Text;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>A canonical value the library's generic tree cannot carry (untrusted_encode answers not_applicable).</summary>
    public sealed class NotCarriedException : Exception
    {
        public NotCarriedException(string message)
            : base(message)
        {
        }
    }

    /// <summary>
    /// The canonical JSON of a decoded value (docs/runner-protocol.md section 11): JSON's own
    /// values as they are, everything else a one-key object ($bytes, $float, $timestamp,
    /// $undefined, $other). Every node is a new token: a JToken added to a second container
    /// is cloned whole by Json.NET, which a deep input would make costly.
    /// </summary>
    public static class CanonicalJson
    {
        public const int MaxDepth = 400;

        /// <summary>A Json.NET tree (from JSON text or BSON) in canonical form.</summary>
        public static JToken Of(JToken t, int depth = 0)
        {
            if (depth > MaxDepth)
                return TooDeep();
            switch (t.Type)
            {
                case JTokenType.Null:
                    return JValue.CreateNull();
                case JTokenType.Undefined:
                    return Special("$undefined", true);
                case JTokenType.Boolean:
                case JTokenType.String:
                    return new JValue(((JValue)t).Value);
                case JTokenType.Integer:
                    return Integer(((JValue)t).Value);
                case JTokenType.Float:
                    return Float(Convert.ToDouble(((JValue)t).Value, CultureInfo.InvariantCulture));
                case JTokenType.Bytes:
                    return Special("$bytes", Hex((byte[])((JValue)t).Value));
                case JTokenType.Date:
                    return Timestamp((DateTime)((JValue)t).Value);
                case JTokenType.Array:
                    var list = new JArray();
                    foreach (JToken e in (JArray)t)
                        list.Add(Of(e, depth + 1));
                    return list;
                case JTokenType.Object:
                    var map = new JObject();
                    foreach (JProperty p in ((JObject)t).Properties())
                        map.Add(p.Name, Of(p.Value, depth + 1));
                    return map;
                default:
                    return Other(t.Type + " " + t.ToString(Newtonsoft.Json.Formatting.None));
            }
        }

        public static JToken Integer(object v)
        {
            object i = Canon.Int(v);
            return i is long ? new JValue((long)i) : new JValue((BigInteger)i);
        }

        public static JToken Float(double d)
        {
            if (double.IsNaN(d))
                return Special("$float", "NaN");
            if (double.IsInfinity(d))
                return Special("$float", d > 0 ? "Infinity" : "-Infinity");
            return new JValue(d);
        }

        /// <summary>A date-time as [seconds, nanoseconds] since the epoch (seconds floored).</summary>
        public static JToken Timestamp(DateTime d)
        {
            long ticks = (d.Kind == DateTimeKind.Local ? d.ToUniversalTime() : d).Ticks - Datasets.Epoch.Ticks;
            long seconds = ticks / TimeSpan.TicksPerSecond;
            long rest = ticks % TimeSpan.TicksPerSecond;
            if (rest < 0)
            {
                seconds--;
                rest += TimeSpan.TicksPerSecond;
            }
            return Special("$timestamp", new JArray(seconds, rest * 100));
        }

        public static JToken Other(string text)
        {
            return Special("$other", text.Length > 200 ? text.Substring(0, 200) : text);
        }

        public static JToken TooDeep()
        {
            return Other("nested deeper than " + MaxDepth);
        }

        static JObject Special(string key, object value)
        {
            return new JObject { { key, value is JToken ? (JToken)value : new JValue(value) } };
        }

        public static string Hex(byte[] b)
        {
            var sb = new StringBuilder(b.Length * 2);
            foreach (byte x in b)
                sb.Append(x.ToString("x2", CultureInfo.InvariantCulture));
            return sb.ToString();
        }

        public static byte[] Unhex(string s)
        {
            if (s.Length % 2 != 0)
                throw new FormatException("odd-length hex " + s);
            var b = new byte[s.Length / 2];
            for (int i = 0; i < b.Length; i++)
                b[i] = byte.Parse(s.Substring(2 * i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            return b;
        }

        /// <summary>
        /// The Json.NET tree a canonical value stands for (the encode direction). JSON text
        /// carries only JSON's own values; BSON also binary, UTC date-times (milliseconds) and
        /// undefined. Anything else throws NotCarriedException.
        /// </summary>
        public static JToken ToTree(JToken v, bool bson)
        {
            switch (v.Type)
            {
                case JTokenType.Array:
                    var list = new JArray();
                    foreach (JToken e in (JArray)v)
                        list.Add(ToTree(e, bson));
                    return list;
                case JTokenType.Object:
                    var o = (JObject)v;
                    if (o.Count == 1)
                    {
                        JProperty only = o.Properties().First();
                        if (only.Name.StartsWith("$", StringComparison.Ordinal) && IsSpecial(only.Name))
                            return Special(only.Name, only.Value, bson);
                    }
                    var map = new JObject();
                    foreach (JProperty p in o.Properties())
                        map.Add(p.Name, ToTree(p.Value, bson));
                    return map;
                default:
                    return new JValue(((JValue)v).Value);
            }
        }

        static readonly string[] SpecialKeys = { "$bytes", "$float", "$map", "$ext", "$timestamp", "$tag", "$simple", "$undefined", "$other" };

        static bool IsSpecial(string key)
        {
            return Array.IndexOf(SpecialKeys, key) >= 0;
        }

        static JToken Special(string key, JToken value, bool bson)
        {
            if (bson && key == "$bytes")
                return new JValue(Unhex((string)value));
            if (bson && key == "$undefined")
                return JValue.CreateUndefined();
            if (bson && key == "$timestamp" && value is JArray && (long)value[1] % 1000000 == 0)
                return new JValue(Datasets.Epoch.AddTicks((long)value[0] * TimeSpan.TicksPerSecond + (long)value[1] / 100));
            throw new NotCarriedException((bson ? "BSON" : "JSON text") + " through Json.NET's tree cannot carry " + key + " " + value.ToString(Newtonsoft.Json.Formatting.None));
        }
    }
}
