using System;
using System.Collections.Generic;
using System.IO;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>A dataset as a serializer sees it: its name, framing and native root type.</summary>
    public sealed class DatasetSpec
    {
        public string Name;
        public bool Stream; // set from the file's framing when it is loaded
        public bool User;
        public Type RootType;
        public Func<object, object> Build; // generic item (Canon form; a JToken for user datasets) -> native
        public Func<object, object> Canonical; // a decoded message -> Canon form, for the check
        public Func<object, object> Expect; // built-ins: an item as read -> the check's expected value (null: as read)
        public TypedMessage Typed; // the generated model; null for a user dataset's generic tree
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
        /// <summary>The built-in datasets: those the generated model has a message for.</summary>
        public static IEnumerable<string> Names
        {
            get { return TypedModels.BuiltinNames; }
        }

        public static DatasetSpec Builtin(string name)
        {
            TypedMessage m = TypedModels.Builtin(name);
            if (m == null)
                return null;
            return new DatasetSpec { Name = name, Typed = m, RootType = m.Root, Build = m.FromCanon, Canonical = m.ToCanon, Expect = m.Expect };
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
            spec.Stream = g["framing"] as string == "stream";
            Check(spec, path, g["format"] as string, g["name"] as string, g["framing"] as string);
            var result = new Loaded { Spec = spec, Count = (int)(long)g["count"] };
            foreach (object item in (List<object>)g["items"])
            {
                result.Items.Add(spec.Build(item));
                result.Generic.Add(ExpectedItem(spec, item));
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
            foreach (object item in (List<object>)g["items"])
                items.Add(ExpectedItem(spec, item));
            return items;
        }

        /// <summary>A built-in item as the check expects it: with the declared float32 widths applied (after Build).</summary>
        static object ExpectedItem(DatasetSpec spec, object item)
        {
            return spec.Expect == null ? item : spec.Expect(item);
        }

        public static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);
    }
}
