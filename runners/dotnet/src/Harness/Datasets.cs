using System;
using System.Collections.Generic;
using System.IO;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Serbench.Model;

namespace Serbench.Harness
{
    /// <summary>A dataset as a serializer sees it: its name, framing and native root type.</summary>
    public sealed class DatasetSpec
    {
        public string Name;
        public bool Stream;
        public bool User;
        public Type RootType;
        public Func<object, object> Build; // generic item (Canon form; a JToken for user datasets) -> native
        public UserTypes Types; // user datasets only
        public string TypeExpr; // user datasets only: the message's type
    }

    /// <summary>A canonical dataset file (datasets/README.md) read into native objects.</summary>
    public sealed class Loaded
    {
        public DatasetSpec Spec;
        public List<object> Items = new List<object>();
        public List<object> Generic = new List<object>(); // built-in datasets: the items in Canon's form
        public int Count;
    }

    public static class Datasets
    {
        public static readonly string[] Names =
        {
            "android-users", "pb-vs-msgpack-test1", "pb-vs-msgpack-test2", "pb-vs-msgpack-test3",
            "pb-vs-msgpack-test4", "one-mb-dict", "click-maps", "log-records",
        };

        public static DatasetSpec Builtin(string name)
        {
            switch (name)
            {
                case "android-users":
                    return Spec(name, false, typeof(List<SampleData>), t => ListOf(t, SampleData));
                case "pb-vs-msgpack-test1":
                    return Spec(name, true, typeof(Test1), t => Test1(t));
                case "pb-vs-msgpack-test2":
                    return Spec(name, true, typeof(Test2), t => Test2(t));
                case "pb-vs-msgpack-test3":
                    return Spec(name, true, typeof(Test3), t => Test3(t));
                case "pb-vs-msgpack-test4":
                    return Spec(name, true, typeof(Test4), t => new Test4 { t1 = Test1(F(t, "t1")), t2 = Test2(F(t, "t2")), t3 = Test3(F(t, "t3")) });
                case "one-mb-dict":
                    return Spec(name, false, typeof(Dictionary<string, string>), t => MapOf(t, v => (string)v));
                case "click-maps":
                    return Spec(name, true, typeof(ClickMap), t => ClickMap(t));
                case "log-records":
                    return Spec(name, false, typeof(List<TestClass>), t => ListOf(t, TestClass));
                default:
                    return null;
            }
        }

        static DatasetSpec Spec(string name, bool stream, Type root, Func<object, object> build)
        {
            return new DatasetSpec { Name = name, Stream = stream, RootType = root, Build = build };
        }

        /// <summary>Parses a file the way every canonical file must be read: no date guessing.</summary>
        public static JObject ReadJson(string path)
        {
            using (var text = new StreamReader(path))
            using (var reader = new JsonTextReader(text))
            {
                reader.DateParseHandling = DateParseHandling.None;
                reader.FloatParseHandling = FloatParseHandling.Double;
                return JObject.Load(reader);
            }
        }

        /// <summary>
        /// A canonical file's envelope with its items in Canon's form, read by a streaming
        /// reader (a JObject of S5's 100,000 records costs ten times the time and memory).
        /// </summary>
        public static Dictionary<string, object> ReadGeneric(string path)
        {
            using (var text = new StreamReader(path))
            using (var reader = new JsonTextReader(text))
            {
                reader.DateParseHandling = DateParseHandling.None;
                reader.FloatParseHandling = FloatParseHandling.Double;
                if (!reader.Read())
                    throw new InvalidDataException(path + " is empty");
                var doc = GenericValue(reader) as Dictionary<string, object>;
                if (doc == null)
                    throw new InvalidDataException(path + " is not a JSON object");
                return doc;
            }
        }

        static object GenericValue(JsonTextReader r)
        {
            switch (r.TokenType)
            {
                case JsonToken.StartObject:
                    var map = new Dictionary<string, object>();
                    while (r.Read() && r.TokenType != JsonToken.EndObject)
                    {
                        var key = (string)r.Value;
                        r.Read();
                        map[key] = GenericValue(r);
                    }
                    return map;
                case JsonToken.StartArray:
                    var list = new List<object>();
                    while (r.Read() && r.TokenType != JsonToken.EndArray)
                        list.Add(GenericValue(r));
                    return list;
                case JsonToken.Integer:
                    return Canon.Int(r.Value);
                case JsonToken.Float:
                case JsonToken.String:
                case JsonToken.Boolean:
                case JsonToken.Null:
                    return r.Value;
                default:
                    throw new InvalidDataException("unexpected JSON token " + r.TokenType);
            }
        }

        public static Loaded Load(DatasetSpec spec, string path)
        {
            if (spec.User)
            {
                JObject doc = ReadJson(path);
                Check(spec, path, (string)doc["format"], (string)doc["name"], (string)doc["framing"]);
                var loaded = new Loaded { Spec = spec, Count = (int)doc["count"] };
                foreach (JToken item in (JArray)doc["items"])
                    loaded.Items.Add(spec.Build(item));
                return NonEmpty(loaded, path);
            }
            Dictionary<string, object> g = ReadGeneric(path);
            Check(spec, path, g["format"] as string, g["name"] as string, g["framing"] as string);
            var result = new Loaded { Spec = spec, Count = (int)(long)g["count"] };
            foreach (object item in (List<object>)g["items"])
            {
                result.Items.Add(spec.Build(item));
                result.Generic.Add(item);
            }
            return NonEmpty(result, path);
        }

        static void Check(DatasetSpec spec, string path, string format, string name, string framing)
        {
            if (format != "serbench-dataset")
                throw new InvalidDataException(path + " is not a serbench dataset file");
            if (name != spec.Name)
                throw new InvalidDataException(path + " holds " + name + ", not " + spec.Name);
            if ((framing == "stream") != spec.Stream)
                throw new InvalidDataException(path + ": framing " + framing);
        }

        static Loaded NonEmpty(Loaded loaded, string path)
        {
            if (loaded.Items.Count == 0 || loaded.Count < 1)
                throw new InvalidDataException(path + ": no items");
            return loaded;
        }

        /// <summary>The items of a check file in Canon's form (the loaded ones when it is the data file).</summary>
        public static List<object> Expected(DatasetSpec spec, string path, Loaded data, string dataPath, out int count)
        {
            if (!spec.User && path == dataPath)
            {
                count = data.Count;
                return data.Generic;
            }
            var items = new List<object>();
            if (spec.User)
            {
                JObject doc = ReadJson(path);
                count = (int)doc["count"];
                foreach (JToken item in (JArray)doc["items"])
                    items.Add(Canon.OfTyped(item, spec.TypeExpr, spec.Types));
                return items;
            }
            Dictionary<string, object> g = ReadGeneric(path);
            count = (int)(long)g["count"];
            return (List<object>)g["items"];
        }

        static Dictionary<string, object> F(object t, string field)
        {
            return (Dictionary<string, object>)((Dictionary<string, object>)t)[field];
        }

        static object V(object t, string field)
        {
            return ((Dictionary<string, object>)t)[field];
        }

        static int I(object t, string field)
        {
            return checked((int)(long)V(t, field));
        }

        static List<T> ListOf<T>(object t, Func<object, T> element)
        {
            var items = (List<object>)t;
            var list = new List<T>(items.Count);
            foreach (object e in items)
                list.Add(element(e));
            return list;
        }

        static Dictionary<string, T> MapOf<T>(object t, Func<object, T> value)
        {
            var map = new Dictionary<string, T>();
            foreach (KeyValuePair<string, object> p in (Dictionary<string, object>)t)
                map.Add(p.Key, value(p.Value));
            return map;
        }

        static SampleData SampleData(object t)
        {
            return new SampleData
            {
                id = (long)V(t, "id"),
                name = (string)V(t, "name"),
                age = I(t, "age"),
                gender = (Gender)I(t, "gender"),
                isMegane = (bool)V(t, "isMegane"),
            };
        }

        static Test1 Test1(object t)
        {
            return new Test1 { a = checked((uint)(long)V(t, "a")), b = checked((uint)(long)V(t, "b")) };
        }

        static Test2 Test2(object t)
        {
            return new Test2 { a = I(t, "a"), b = I(t, "b") };
        }

        static Test3 Test3(object t)
        {
            return new Test3 { s = (string)V(t, "s") };
        }

        static ClickMap ClickMap(object t)
        {
            return new ClickMap
            {
                url = (string)V(t, "url"),
                day = (string)V(t, "day"),
                viewport = new Viewport { width = I(F(t, "viewport"), "width"), height = I(F(t, "viewport"), "height") },
                clicks = MapOf(V(t, "clicks"), c => new Click
                {
                    x = I(c, "x"),
                    y = I(c, "y"),
                    count = I(c, "count"),
                    lastClick = (long)V(c, "lastClick"),
                    selector = (string)V(c, "selector"),
                }),
            };
        }

        public static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        static TestClass TestClass(object t)
        {
            return new TestClass
            {
                MyProperty1 = (string)V(t, "MyProperty1"),
                MyProperty2 = I(t, "MyProperty2"),
                MyProperty3 = Epoch.AddMilliseconds((long)V(t, "MyProperty3")),
                MyProperty4 = (bool)V(t, "MyProperty4"),
                MyProperty5 = ListOf(V(t, "MyProperty5"), p => new KeyValuePair<string, string>((string)V(p, "key"), (string)V(p, "value"))),
            };
        }
    }
}
