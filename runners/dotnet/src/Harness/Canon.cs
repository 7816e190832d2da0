using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Text;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>
    /// The one form the check compares: null, bool, string, long or BigInteger (integers),
    /// double, byte[], List&lt;object&gt; and Dictionary&lt;string, object&gt; (maps compared as maps).
    /// Native objects, canonical JSON and decoded generic trees are all brought to it.
    /// </summary>
    public static class Canon
    {
        public static object OfJson(JToken t)
        {
            switch (t.Type)
            {
                case JTokenType.Null:
                    return null;
                case JTokenType.Boolean:
                    return (bool)t;
                case JTokenType.String:
                    return (string)t;
                case JTokenType.Integer:
                    return Int(((JValue)t).Value);
                case JTokenType.Float:
                    return (double)t;
                case JTokenType.Bytes:
                    return (byte[])((JValue)t).Value;
                case JTokenType.Date:
                    return Millis((DateTime)((JValue)t).Value);
                case JTokenType.Array:
                    var list = new List<object>();
                    foreach (JToken e in (JArray)t)
                        list.Add(OfJson(e));
                    return list;
                case JTokenType.Object:
                    var map = new Dictionary<string, object>();
                    foreach (JProperty p in ((JObject)t).Properties())
                        map[p.Name] = OfJson(p.Value);
                    return map;
                default:
                    throw new FormatException("unexpected JSON token " + t.Type);
            }
        }

        /// <summary>Integers in one form: long when they fit, else BigInteger.</summary>
        public static object Int(object v)
        {
            if (v is long)
                return v;
            if (v is BigInteger)
            {
                var b = (BigInteger)v;
                return b >= long.MinValue && b <= long.MaxValue ? (object)(long)b : b;
            }
            if (v is ulong)
            {
                var u = (ulong)v;
                return u <= long.MaxValue ? (object)(long)u : new BigInteger(u);
            }
            return Convert.ToInt64(v, CultureInfo.InvariantCulture);
        }

        public static long Millis(DateTime d)
        {
            // Unspecified is read as UTC: every value written here is UTC.
            DateTime u = d.Kind == DateTimeKind.Local ? d.ToUniversalTime() : d;
            return (u.Ticks - Datasets.Epoch.Ticks) / TimeSpan.TicksPerMillisecond;
        }

        /// <summary>
        /// A value of an `any` field as a library decoded it (Canon's form, or the .NET types a
        /// serializer brings back: other integer widths, DateTime, any IDictionary or IList).
        /// </summary>
        public static object OfNative(object o)
        {
            if (o == null || o is string || o is bool || o is double || o is byte[])
                return o;
            if (o is float)
                return (double)(float)o;
            if (o is Enum)
                return Convert.ToInt64(o, CultureInfo.InvariantCulture);
            if (o is int || o is uint || o is long || o is ulong || o is short || o is ushort || o is byte || o is sbyte || o is BigInteger)
                return Int(o);
            if (o is DateTime)
                return Millis((DateTime)o);
            if (o is JToken)
                return OfJson((JToken)o);
            var dict = o as IDictionary;
            if (dict != null)
            {
                var map = new Dictionary<string, object>();
                foreach (DictionaryEntry e in dict)
                    map[(string)e.Key] = OfNative(e.Value);
                return map;
            }
            var seq = o as IList;
            if (seq != null)
            {
                var list = new List<object>(seq.Count);
                foreach (object e in seq)
                    list.Add(OfNative(e));
                return list;
            }
            return o; // no Canon form: the check shows its type
        }

        /// <summary>A user dataset's value with its declared type applied (UserTypes).</summary>
        public static object OfTyped(JToken t, string type, UserTypes types)
        {
            return types.Canonical(t, type);
        }

        /// <summary>The first difference as "path: actual != expected", or null when equal.</summary>
        public static string Diff(object expected, object actual, string path)
        {
            var where = new List<string>();
            string what = Differ(expected, actual, where);
            if (what == null)
                return null;
            where.Reverse();
            return path + string.Concat(where) + ": " + what;
        }

        /// <summary>What differs, with the path segments added innermost first (built only on a difference).</summary>
        static string Differ(object expected, object actual, List<string> where)
        {
            var em = expected as Dictionary<string, object>;
            if (em != null)
            {
                var a = actual as Dictionary<string, object>;
                if (a == null)
                    return Show(actual) + " != a map";
                foreach (KeyValuePair<string, object> kv in em)
                {
                    object v;
                    if (!a.TryGetValue(kv.Key, out v))
                    {
                        where.Add(Segment(kv.Key));
                        return "missing";
                    }
                    string d = Differ(kv.Value, v, where);
                    if (d != null)
                    {
                        where.Add(Segment(kv.Key));
                        return d;
                    }
                }
                foreach (string k in a.Keys)
                {
                    if (!em.ContainsKey(k))
                    {
                        where.Add(Segment(k));
                        return "unexpected key";
                    }
                }
                return null;
            }
            var el = expected as List<object>;
            if (el != null)
            {
                var a = actual as List<object>;
                if (a == null)
                    return Show(actual) + " != a list";
                if (a.Count != el.Count)
                    return "length " + a.Count + " != " + el.Count;
                for (int i = 0; i < el.Count; i++)
                {
                    string d = Differ(el[i], a[i], where);
                    if (d != null)
                    {
                        where.Add("[" + i + "]");
                        return d;
                    }
                }
                return null;
            }
            var eb = expected as byte[];
            if (eb != null)
            {
                var a = actual as byte[];
                if (a != null && a.Length == eb.Length)
                {
                    for (int i = 0; i < eb.Length; i++)
                    {
                        if (a[i] != eb[i])
                        {
                            where.Add("[" + i + "]");
                            return a[i] + " != " + eb[i];
                        }
                    }
                    return null;
                }
                return Show(actual) + " != " + Show(expected);
            }
            if (expected is double && actual is double)
            {
                long ebits = BitConverter.DoubleToInt64Bits((double)expected);
                long abits = BitConverter.DoubleToInt64Bits((double)actual);
                bool same = ebits == abits || (double.IsNaN((double)expected) && double.IsNaN((double)actual));
                return same ? null : Show(actual) + " != " + Show(expected);
            }
            if (expected == null ? actual == null : expected.Equals(actual))
                return null;
            return Show(actual) + " != " + Show(expected);
        }

        static string Segment(string key)
        {
            return Join("", key);
        }

        static string Join(string path, string key)
        {
            bool ident = key.Length > 0 && (char.IsLetter(key[0]) || key[0] == '_');
            foreach (char c in key)
                ident &= char.IsLetterOrDigit(c) || c == '_';
            return ident ? path + "." + key : path + "[" + Quote(key) + "]";
        }

        static string Quote(string s)
        {
            var sb = new StringBuilder("\"");
            foreach (char c in s.Length > 60 ? s.Substring(0, 60) + "..." : s)
            {
                if (c == '"' || c == '\\')
                    sb.Append('\\').Append(c);
                else if (c < ' ')
                    sb.AppendFormat("\\u{0:x4}", (int)c);
                else
                    sb.Append(c);
            }
            return sb.Append('"').ToString();
        }

        public static string Show(object v)
        {
            if (v == null)
                return "null";
            if (v is string)
                return Quote((string)v);
            if (v is bool)
                return (bool)v ? "true" : "false";
            if (v is double)
                return ((double)v).ToString("R", CultureInfo.InvariantCulture);
            if (v is byte[])
                return "bytes[" + ((byte[])v).Length + "]";
            if (v is List<object>)
                return "a list";
            if (v is Dictionary<string, object>)
                return "a map";
            if (v is long || v is BigInteger)
                return Convert.ToString(v, CultureInfo.InvariantCulture);
            return v.GetType().Name + " " + Convert.ToString(v, CultureInfo.InvariantCulture);
        }
    }
}
