using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>User datasets (protocol section 7): the -dynamic rows' generic tree on a hand-made, unregistered type file; the typed rows' generated classes.</summary>
    [TestFixture]
    public class UserDataTests
    {
        const string Types = @"{""message"": ""Root"", ""types"": {
  ""Root"": {""record"": [[""name"", ""string""], [""blob"", ""bytes""], [""when"", ""timestamp_ms""],
    [""ratio"", ""float64""], [""nan"", ""float64""], [""inf"", ""float64""], [""negzero"", ""float64""], [""f32"", ""float32""],
    [""big"", ""uint64""], [""maybe"", ""optional<int32>""], [""none"", ""optional<string>""],
    [""tags"", ""map<string,int64>""], [""extra"", ""any""], [""kind"", ""Color""], [""items"", ""list<Item>""]]},
  ""Color"": {""enum"": [""Red"", ""Green""]},
  ""Item"": {""record"": [[""id"", ""int32""], [""at"", ""timestamp_ms""]]}}}";

        static string Item(string big, string name = "caf\u00e9 \u2028 \\u0000 end")
        {
            return @"{""name"": """ + name + @""", ""blob"": ""AAEC/w=="", ""when"": 1394156093428, ""ratio"": 0.1,
              ""nan"": ""NaN"", ""inf"": ""-Infinity"", ""negzero"": -0.0, ""f32"": 0.1, ""big"": " + big + @", ""maybe"": 7, ""none"": null,
              ""tags"": {"""": 1, ""b"": -9007199254740993}, ""extra"": {""x"": [1, 2.5, ""s"", null, true, {}]},
              ""kind"": 1, ""items"": [{""id"": 1, ""at"": 0}, {""id"": -2, ""at"": -1000}]}";
        }

        static JObject Prepare(string serializer, string big, string tampered = null)
        {
            string types = Fixtures.Write("user.types.json", Types);
            string envelope = @"{""format"":""serbench-dataset"",""version"":1,""name"":""mine"",""scenario"":""user"",""scale"":""user"",""framing"":""stream"",""count"":3,""items"":[";
            string data = Fixtures.Write("user." + big + ".json", envelope + Item(big) + "," + Item("5", "second") + "]}");
            var ds = new JObject { { "name", "mine" }, { "kind", "user" }, { "data", data }, { "types", types }, { "schemas", new JObject() } };
            if (tampered != null)
                ds["check_data"] = Fixtures.Write("user.tampered.json", envelope + Item(big) + "," + Item("5", tampered) + "]}");
            var cmd = new JObject { { "cmd", "prepare" }, { "cell", "u" }, { "serializer", serializer }, { "dataset", ds }, { "operations", new JArray("encode", "decode") } };
            return new Server().Handle(cmd.ToString());
        }

        [Test]
        public void JsonNetDynamicCarriesTheGenericTree()
        {
            JObject r = Prepare("json.net-dynamic", "18446744073709551615");
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            Assert.AreEqual("3 message(s) equal", (string)r["check"]["detail"]);
        }

        [Test]
        public void JsonNetDynamicReportsALossWithThePath()
        {
            JObject r = Prepare("json.net-dynamic", "5", "other");
            Assert.AreEqual("check_failed", (string)r["status"]);
            Assert.AreEqual("message 1: $.name: \"second\" != \"other\"", (string)r["check"]["detail"]);
        }

        [Test]
        public void BsonDynamicCarriesItWithinInt64()
        {
            JObject r = Prepare("json.net-bson-dynamic", "9223372036854775807");
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            r = Prepare("json.net-bson-dynamic", "18446744073709551615");
            Assert.AreEqual("not_applicable", (string)r["status"]);
            StringAssert.Contains("at $.big", (string)r["error"]["message"]);
        }

        [Test]
        public void DynamicRowsAreForUserDatasetsOnly()
        {
            JObject d = Describe.Build();
            foreach (string name in new[] { "json.net-dynamic", "json.net-bson-dynamic" })
            {
                var row = (JObject)((JArray)d["serializers"]).Single(s => (string)s["name"] == name);
                CollectionAssert.Contains(row["labels"].Select(l => (string)l), "dynamic", name);
                Assert.IsTrue((bool)row["user_datasets"]["applicable"], name);
                foreach (JProperty ds in ((JObject)row["datasets"]).Properties())
                {
                    Assert.IsFalse((bool)ds.Value["applicable"], name + " " + ds.Name);
                    StringAssert.StartsWith("user datasets only", (string)ds.Value["reason"], name + " " + ds.Name);
                }
            }
            var cmd = new JObject
            {
                { "cmd", "prepare" }, { "cell", "b" }, { "serializer", "json.net-dynamic" },
                { "dataset", new JObject { { "name", "android-users" }, { "kind", "builtin" }, { "data", Fixtures.AndroidUsers() } } },
                { "operations", new JArray("encode", "decode") },
            };
            JObject r = new Server().Handle(cmd.ToString());
            Assert.AreEqual("not_applicable", (string)r["status"], r.ToString());
            StringAssert.StartsWith("user datasets only", (string)r["error"]["message"]);
        }

        [Test]
        public void TypedLibrariesTakeUserDataAsTheGeneratedClasses()
        {
            // A user dataset bound to a generated model (the built-in android-users classes
            // here: the build generates none for a file written by a test), through the user
            // path: the JSON item with its types applied, the generated FromCanon and ToCanon.
            string datasets = System.Environment.GetEnvironmentVariable("SERBENCH_DATASETS_DIR") ?? "../../../datasets"; // from build/
            string types = Fixtures.Write("android.types.json", File.ReadAllText(Path.Combine(datasets, "android-users", "types.json")));
            var ds = new JObject { { "name", "android-users" }, { "kind", "user" }, { "data", Fixtures.AndroidUsers() }, { "types", types }, { "schemas", new JObject() } };
            foreach (Serializer s in Registry.All.Where(s => !s.GenericTree))
            {
                DatasetSpec spec = TypedModels.UserSpec(UserTypes.Spec(ds), TypedModels.Builtin("android-users"));
                Cell cell = Cell.Prepare("t", s, spec, ds, new List<string> { "encode", "decode" }, null, null);
                Assert.AreEqual("ok", (string)cell.Reply["status"], s.Name + ": " + cell.Reply);
            }
        }

        [Test]
        public void TypedLibrariesNeedTheGeneratedModel()
        {
            // This types file is not registered, so the build generated no classes for it.
            foreach (string s in new[] { "binaryformatter", "xmlserializer", "datacontractjsonserializer", "datacontractjsonserializer-binary", "handwritten", "memcpy", "json.net", "json.net-bson" })
            {
                JObject r = Prepare(s, "5");
                Assert.AreEqual("not_applicable", (string)r["status"], s);
                StringAssert.Contains(TypedModels.NotBuilt, (string)r["error"]["message"], s);
            }
        }

        [Test]
        public void JsonNetTypedRowsEncodeTheGeneratedClasses()
        {
            // json.net and json.net-bson on a user dataset: the items are the generated classes
            // (the built-in android-users model standing in for a registered dataset's, as above),
            // decoded back into them; their -dynamic twins hold and decode a JToken.
            string datasets = System.Environment.GetEnvironmentVariable("SERBENCH_DATASETS_DIR") ?? "../../../datasets"; // from build/
            string types = Fixtures.Write("android.types.json", File.ReadAllText(Path.Combine(datasets, "android-users", "types.json")));
            var ds = new JObject { { "name", "android-users" }, { "kind", "user" }, { "data", Fixtures.AndroidUsers() }, { "types", types }, { "schemas", new JObject() } };
            TypedMessage model = TypedModels.Builtin("android-users");
            foreach (string name in new[] { "json.net", "json.net-bson" })
            {
                Serializer typed = Registry.Find(name);
                Assert.IsFalse(typed.GenericTree, name);
                DatasetSpec spec = TypedModels.UserSpec(UserTypes.Spec(ds), model);
                Loaded loaded = Datasets.Load(spec, Fixtures.AndroidUsers());
                Assert.IsInstanceOf(model.Root, loaded.Items[0], name);
                Codec codec = typed.Bind(spec);
                codec.Prepare(loaded.Items);
                var output = new MemoryStream();
                codec.Encode(loaded.Items[0], output);
                object decoded = codec.Decode(output.GetBuffer(), 0, (int)output.Length);
                Assert.IsInstanceOf(model.Root, decoded, name);
                Assert.IsNull(Canon.Diff(spec.Canonical(loaded.Items[0]), spec.Canonical(decoded), "$"), name);

                Serializer dynamic = Registry.Find(name + "-dynamic");
                Assert.IsTrue(dynamic.GenericTree, name);
                DatasetSpec tree = UserTypes.Spec(ds);
                Loaded treeItems = Datasets.Load(tree, Fixtures.AndroidUsers());
                Assert.IsInstanceOf<JToken>(treeItems.Items[0], name);
                Codec dynamicCodec = dynamic.Bind(tree);
                output = new MemoryStream();
                dynamicCodec.Encode(treeItems.Items[0], output);
                Assert.IsInstanceOf<JToken>(dynamicCodec.Decode(output.GetBuffer(), 0, (int)output.Length), name);
            }
        }

        [Test]
        public void TypedBsonRefusesWhatBsonCannotCarryWithThePath()
        {
            // The typed row checks the generated classes' values (through ToCanon) before encoding.
            var spec = new DatasetSpec { Name = "u", User = true, RootType = typeof(Dictionary<string, object>), Canonical = Canon.OfNative };
            Codec codec = Registry.Find("json.net-bson").Bind(spec);
            var e = Assert.Throws<NotApplicableException>(() => codec.Prepare(new List<object> { new Dictionary<string, object> { { "ok", 1L }, { "big", ulong.MaxValue } } }));
            StringAssert.Contains("18446744073709551615 at $.big exceeds int64", e.Message);
            e = Assert.Throws<NotApplicableException>(() => codec.Prepare(new List<object> { new Dictionary<string, object> { { "m", new Dictionary<string, int> { { "a\0b", 1 } } } } }));
            StringAssert.Contains("key with NUL at $.m", e.Message);
            e = Assert.Throws<NotApplicableException>(() => codec.Prepare(new List<object> { "text" }));
            StringAssert.Contains("the message at $ is a String", e.Message);
            Assert.DoesNotThrow(() => codec.Prepare(new List<object> { new Dictionary<string, object> { { "big", (ulong)long.MaxValue } } }));
        }
    }
}
