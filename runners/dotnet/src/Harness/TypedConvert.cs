using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Numerics;

namespace Serbench.Harness
{
    /// <summary>
    /// What the generated conversions call: Canon's form (long/BigInteger integers, ms
    /// timestamps, enum ordinals, List/Dictionary) to the generated classes and back.
    /// </summary>
    public static class Conv
    {
        public static int I32(object c)
        {
            return checked((int)(long)Canon.Int(c));
        }

        public static uint U32(object c)
        {
            return checked((uint)(long)Canon.Int(c));
        }

        public static long I64(object c)
        {
            return (long)Canon.Int(c);
        }

        public static ulong U64(object c)
        {
            object v = Canon.Int(c);
            return v is BigInteger ? (ulong)(BigInteger)v : checked((ulong)(long)v);
        }

        public static BigInteger Big(object c)
        {
            object v = Canon.Int(c);
            return v is BigInteger ? (BigInteger)v : new BigInteger((long)v);
        }

        public static double F64(object c)
        {
            return Convert.ToDouble(c, CultureInfo.InvariantCulture);
        }

        public static DateTime Time(object c)
        {
            return Datasets.Epoch.AddMilliseconds(I64(c));
        }

        public static T Opt<T>(object c, Func<object, T> value) where T : class
        {
            return c == null ? null : value(c);
        }

        public static T? OptV<T>(object c, Func<object, T> value) where T : struct
        {
            return c == null ? (T?)null : value(c);
        }

        public static object Field(Dictionary<string, object> record, string key)
        {
            object v;
            return record.TryGetValue(key, out v) ? v : null;
        }

        /// <summary>
        /// A float32 of the canonical file as the model holds it: the shortest text of a float32
        /// read as a double can miss that float by one double ulp (Mono's double.Parse, for about
        /// 0.1% of values), and the decoded float, widened, is then compared with the float.
        /// </summary>
        public static object F32(object c)
        {
            return c == null ? null : (object)(double)(float)F64(c);
        }

        /// <summary>Applies f to a record's field in place, when the field is there.</summary>
        public static void Update(Dictionary<string, object> record, string key, Func<object, object> f)
        {
            object v;
            if (record.TryGetValue(key, out v))
                record[key] = f(v);
        }

        /// <summary>Applies f to every element of a list (Canon's form) in place.</summary>
        public static object Each(object c, Func<object, object> element)
        {
            var list = c as List<object>;
            if (list != null)
            {
                for (int i = 0; i < list.Count; i++)
                    list[i] = element(list[i]);
            }
            return c;
        }

        /// <summary>Applies f to every value of a map (Canon's form) in place.</summary>
        public static object EachValue(object c, Func<object, object> value)
        {
            var map = c as Dictionary<string, object>;
            if (map != null)
            {
                foreach (string k in new List<string>(map.Keys))
                    map[k] = value(map[k]);
            }
            return c;
        }

        public static List<T> List<T>(object c, Func<object, T> element)
        {
            if (c == null)
                return null;
            var items = (List<object>)c;
            var list = new List<T>(items.Count);
            foreach (object e in items)
                list.Add(element(e));
            return list;
        }

        public static Dictionary<string, T> Map<T>(object c, Func<object, T> value)
        {
            if (c == null)
                return null;
            var map = new Dictionary<string, T>();
            foreach (KeyValuePair<string, object> p in (Dictionary<string, object>)c)
                map.Add(p.Key, value(p.Value));
            return map;
        }

        public static object ListC<T>(List<T> list, Func<T, object> element)
        {
            if (list == null)
                return null;
            var c = new List<object>(list.Count);
            foreach (T e in list)
                c.Add(element(e));
            return c;
        }

        public static object MapC<T>(Dictionary<string, T> map, Func<T, object> value)
        {
            if (map == null)
                return null;
            var c = new Dictionary<string, object>();
            foreach (KeyValuePair<string, T> p in map)
                c[p.Key] = value(p.Value);
            return c;
        }
    }

    /// <summary>
    /// The handwritten row's building blocks, which the generated writers and readers call:
    /// lists and maps an int32 count first, bytes an int32 length first, an optional value a
    /// bool presence flag first.
    /// </summary>
    public static class Hw
    {
        public static void List<T>(BinaryWriter w, List<T> list, Action<BinaryWriter, T> element)
        {
            w.Write(list.Count);
            foreach (T e in list)
                element(w, e);
        }

        public static List<T> ReadList<T>(BinaryReader r, Func<BinaryReader, T> element)
        {
            int n = r.ReadInt32();
            var list = new List<T>(n);
            for (int i = 0; i < n; i++)
                list.Add(element(r));
            return list;
        }

        public static void Map<T>(BinaryWriter w, Dictionary<string, T> map, Action<BinaryWriter, T> value)
        {
            w.Write(map.Count);
            foreach (KeyValuePair<string, T> kv in map)
            {
                w.Write(kv.Key);
                value(w, kv.Value);
            }
        }

        public static Dictionary<string, T> ReadMap<T>(BinaryReader r, Func<BinaryReader, T> value)
        {
            int n = r.ReadInt32();
            var map = new Dictionary<string, T>(n);
            for (int i = 0; i < n; i++)
            {
                string k = r.ReadString();
                map.Add(k, value(r));
            }
            return map;
        }

        public static void Bytes(BinaryWriter w, byte[] b)
        {
            w.Write(b.Length);
            w.Write(b);
        }

        public static byte[] ReadBytes(BinaryReader r)
        {
            return r.ReadBytes(r.ReadInt32());
        }

        public static void Opt<T>(BinaryWriter w, T v, Action<BinaryWriter, T> value) where T : class
        {
            w.Write(v != null);
            if (v != null)
                value(w, v);
        }

        public static T ReadOpt<T>(BinaryReader r, Func<BinaryReader, T> value) where T : class
        {
            return r.ReadBoolean() ? value(r) : null;
        }

        public static void OptV<T>(BinaryWriter w, T? v, Action<BinaryWriter, T> value) where T : struct
        {
            w.Write(v.HasValue);
            if (v.HasValue)
                value(w, v.Value);
        }

        public static T? ReadOptV<T>(BinaryReader r, Func<BinaryReader, T> value) where T : struct
        {
            return r.ReadBoolean() ? value(r) : (T?)null;
        }
    }
}
