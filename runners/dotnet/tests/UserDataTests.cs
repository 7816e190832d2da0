using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Serbench.Harness;

namespace Serbench.Tests
{
    /// <summary>User datasets (protocol section 7) through the generic tree: a hand-made, unregistered type file.</summary>
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
        public void JsonNetCarriesTheGenericTree()
        {
            JObject r = Prepare("json.net", "18446744073709551615");
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
            Assert.AreEqual("3 message(s) equal", (string)r["check"]["detail"]);
        }

        [Test]
        public void BsonCarriesItWithinInt64()
        {
            JObject r = Prepare("json.net-bson", "9223372036854775807");
            Assert.AreEqual("ok", (string)r["status"], r.ToString());
        }

        [Test]
        public void BsonHasNoUnsigned64()
        {
            JObject r = Prepare("json.net-bson", "18446744073709551615");
            Assert.AreEqual("not_applicable", (string)r["status"]);
            StringAssert.Contains("at $.big", (string)r["error"]["message"]);
        }

        [Test]
        public void ALossIsReportedWithThePath()
        {
            JObject r = Prepare("json.net", "5", "other");
            Assert.AreEqual("check_failed", (string)r["status"]);
            Assert.AreEqual("message 1: $.name: \"second\" != \"other\"", (string)r["check"]["detail"]);
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
            foreach (string s in new[] { "binaryformatter", "xmlserializer", "datacontractjsonserializer", "datacontractjsonserializer-binary", "handwritten", "memcpy" })
            {
                JObject r = Prepare(s, "5");
                Assert.AreEqual("not_applicable", (string)r["status"], s);
                StringAssert.Contains(TypedModels.NotBuilt, (string)r["error"]["message"], s);
            }
        }
    }
}
