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
        public Func<JToken, object> Build;
        public UserTypes Types; // user datasets only
        public string TypeExpr; // user datasets only: the message's type
    }

    /// <summary>A canonical dataset file (datasets/README.md) read into native objects.</summary>
    public sealed class Loaded
    {
        public DatasetSpec Spec;
        public List<object> Items = new List<object>();
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
                    return Spec(name, true, typeof(Test4), t => new Test4 { t1 = Test1(t["t1"]), t2 = Test2(t["t2"]), t3 = Test3(t["t3"]) });
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

        static DatasetSpec Spec(string name, bool stream, Type root, Func<JToken, object> build)
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

        public static Loaded Load(DatasetSpec spec, string path)
        {
            JObject doc = ReadJson(path);
            if ((string)doc["format"] != "serbench-dataset")
                throw new InvalidDataException(path + " is not a serbench dataset file");
            if ((string)doc["name"] != spec.Name)
                throw new InvalidDataException(path + " holds " + doc["name"] + ", not " + spec.Name);
            bool stream = (string)doc["framing"] == "stream";
            if (stream != spec.Stream)
                throw new InvalidDataException(path + ": framing " + doc["framing"]);
            var loaded = new Loaded { Spec = spec, Count = (int)doc["count"] };
            foreach (JToken item in (JArray)doc["items"])
                loaded.Items.Add(spec.Build(item));
            if (loaded.Items.Count == 0 || loaded.Count < 1)
                throw new InvalidDataException(path + ": no items");
            return loaded;
        }

        /// <summary>The items of a check file as generic values (Canon's form).</summary>
        public static List<object> Expected(DatasetSpec spec, string path, out int count)
        {
            JObject doc = ReadJson(path);
            count = (int)doc["count"];
            var items = new List<object>();
            foreach (JToken item in (JArray)doc["items"])
                items.Add(spec.User ? Canon.OfTyped(item, spec.TypeExpr, spec.Types) : Canon.OfJson(item));
            return items;
        }

        static List<T> ListOf<T>(JToken t, Func<JToken, T> element)
        {
            var list = new List<T>();
            foreach (JToken e in (JArray)t)
                list.Add(element(e));
            return list;
        }

        static Dictionary<string, T> MapOf<T>(JToken t, Func<JToken, T> value)
        {
            var map = new Dictionary<string, T>();
            foreach (JProperty p in ((JObject)t).Properties())
                map.Add(p.Name, value(p.Value));
            return map;
        }

        static SampleData SampleData(JToken t)
        {
            return new SampleData
            {
                id = (long)t["id"],
                name = (string)t["name"],
                age = (int)t["age"],
                gender = (Gender)(int)t["gender"],
                isMegane = (bool)t["isMegane"],
            };
        }

        static Test1 Test1(JToken t)
        {
            return new Test1 { a = (uint)t["a"], b = (uint)t["b"] };
        }

        static Test2 Test2(JToken t)
        {
            return new Test2 { a = (int)t["a"], b = (int)t["b"] };
        }

        static Test3 Test3(JToken t)
        {
            return new Test3 { s = (string)t["s"] };
        }

        static ClickMap ClickMap(JToken t)
        {
            return new ClickMap
            {
                url = (string)t["url"],
                day = (string)t["day"],
                viewport = new Viewport { width = (int)t["viewport"]["width"], height = (int)t["viewport"]["height"] },
                clicks = MapOf(t["clicks"], c => new Click
                {
                    x = (int)c["x"],
                    y = (int)c["y"],
                    count = (int)c["count"],
                    lastClick = (long)c["lastClick"],
                    selector = (string)c["selector"],
                }),
            };
        }

        public static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        static TestClass TestClass(JToken t)
        {
            return new TestClass
            {
                MyProperty1 = (string)t["MyProperty1"],
                MyProperty2 = (int)t["MyProperty2"],
                MyProperty3 = Epoch.AddMilliseconds((long)t["MyProperty3"]),
                MyProperty4 = (bool)t["MyProperty4"],
                MyProperty5 = ListOf(t["MyProperty5"], p => new KeyValuePair<string, string>((string)p["key"], (string)p["value"])),
            };
        }
    }
}
