using System;
using System.IO;
using System.Text;
using Newtonsoft.Json.Linq;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>Canonical dataset files written by the tests themselves, and a serve session.</summary>
    public static class Fixtures
    {
        static readonly string Dir = Path.Combine(Path.GetTempPath(), "serbench-dotnet-tests-" + Guid.NewGuid().ToString("N"));

        public static string Write(string name, string text)
        {
            Directory.CreateDirectory(Dir);
            string path = Path.Combine(Dir, name);
            File.WriteAllText(path, text, new UTF8Encoding(false));
            return path;
        }

        static string Envelope(string name, string scenario, string framing, int count, JArray items)
        {
            var doc = new JObject
            {
                { "format", "serbench-dataset" }, { "version", 1 }, { "name", name }, { "scenario", scenario },
                { "scale", "test" }, { "framing", framing }, { "count", count }, { "items", items },
            };
            return doc.ToString(Newtonsoft.Json.Formatting.None);
        }

        /// <summary>S5 as scenarios.md defines it: record i = 1..n.</summary>
        public static string LogRecords(int n, int tamperAt = -1)
        {
            var list = new JArray();
            for (int i = 1; i <= n; i++)
            {
                var pairs = new JArray();
                for (int k = 1; k <= 10; k++)
                    pairs.Add(new JObject { { "key", k.ToString() }, { "value", (i == tamperAt && k == 3 ? i + 1 : i).ToString() } });
                list.Add(new JObject
                {
                    { "MyProperty1", "hoge" + i }, { "MyProperty2", i },
                    { "MyProperty3", 944870400000L + i * 86400000L }, { "MyProperty4", i % 2 == 0 },
                    { "MyProperty5", pairs },
                });
            }
            return Write("log-records." + n + "." + tamperAt + ".json", Envelope("log-records", "S5", "single", 1, new JArray { list }));
        }

        /// <summary>S1: 30 SampleData records with fixed ages and flags.</summary>
        public static string AndroidUsers()
        {
            var list = new JArray();
            for (int i = 0; i < 30; i++)
                list.Add(new JObject { { "id", i }, { "name", "user " + i }, { "age", (i * 7) % 50 }, { "gender", i % 2 }, { "isMegane", i % 3 == 0 } });
            return Write("android-users.json", Envelope("android-users", "S1", "single", 1, new JArray { list }));
        }

        public static string Test2Stream(int count)
        {
            return Write("test2.json", Envelope("pb-vs-msgpack-test2", "S2", "stream", count, new JArray { new JObject { { "a", -1 }, { "b", -2 } } }));
        }

        public static string ClickMaps()
        {
            var items = new JArray();
            for (int d = 0; d < 3; d++)
            {
                var clicks = new JObject();
                for (int c = 0; c < d + 2; c++)
                    clicks[c + "," + (c * 3)] = new JObject { { "x", c }, { "y", c * 3 }, { "count", d + 1 }, { "lastClick", 1394156093428L + c }, { "selector", "a.b > c" } };
                items.Add(new JObject { { "url", "https://example.org/" + d }, { "day", "2014-03-07" }, { "viewport", new JObject { { "width", 768 }, { "height", 1024 } } }, { "clicks", clicks } });
            }
            return Write("click-maps.json", Envelope("click-maps", "S4", "stream", 5, items));
        }

        public static string OneMbDict()
        {
            return Write("one-mb-dict.json", Envelope("one-mb-dict", "S3", "single", 1, new JArray { new JObject { { "key1", "abc" }, { "key2", "def" }, { "key3", "" } } }));
        }

        /// <summary>
        /// S6: one triangle of float32s (k / 2^24) whose shortest texts Mono's double.Parse reads
        /// one double ulp off (0.4181819558143616 is k = 7015929), written as text to keep them.
        /// </summary>
        public static string Mesh()
        {
            const string v = "{\"x\":0.4181819558143616,\"y\":0.3338618874549866,\"z\":0.3183589577674866}";
            string triangle = "{\"v0\":" + v + ",\"v1\":" + v + ",\"v2\":" + v + ",\"normal\":" + v + "}";
            return Write("mesh.json", "{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\"mesh\",\"scenario\":\"S6\",\"scale\":\"test\","
                + "\"framing\":\"single\",\"count\":1,\"items\":[{\"triangles\":[" + triangle + "]}]}");
        }

        public static JObject Prepare(Server server, string cell, string serializer, string dataset, string data, string checkData = null, params string[] operations)
        {
            var ds = new JObject { { "name", dataset }, { "kind", "builtin" }, { "data", data } };
            if (checkData != null)
                ds["check_data"] = checkData;
            var cmd = new JObject
            {
                { "cmd", "prepare" }, { "cell", cell }, { "serializer", serializer }, { "dataset", ds },
                { "operations", new JArray(operations.Length == 0 ? new[] { "encode", "decode" } : operations) },
            };
            return server.Handle(cmd.ToString(Newtonsoft.Json.Formatting.None));
        }
    }
}
