using System;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// Json.NET's BsonWriter/BsonReader (Newtonsoft.Json.Bson, in the same assembly in 6.0):
    /// a root list is a BSON document keyed "0", "1", ... read back with ReadRootValueAsArray;
    /// dates are BSON UTC datetimes. The generated classes on built-in and user datasets alike;
    /// what BSON cannot carry (an integer beyond int64, NUL in a key, a root that is not a
    /// document) is not applicable with its path. The JToken API is `json.net-bson-dynamic`.
    /// </summary>
    public sealed class JsonNetBson : Serializer
    {
        public override string Name { get { return "json.net-bson"; } }
        public override string Format { get { return "bson"; } }
        public override string Library { get { return "Json.NET BSON (Newtonsoft.Json.Bson)"; } }
        public override string Version { get { return Describe.AssemblyVersion(typeof(JsonConvert).Assembly); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-ordinal", "root-list-document" }; } }
        public override string[] Assemblies { get { return new[] { typeof(JsonConvert).Assembly.Location }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            JsonSerializer json = JsonSerializer.Create();
            Type root = spec.RootType;
            bool rootArray = typeof(System.Collections.IList).IsAssignableFrom(root);
            return new StreamCodec(
                (o, s) =>
                {
                    var w = new BsonWriter(s) { DateTimeKindHandling = DateTimeKind.Utc };
                    json.Serialize(w, o);
                    w.Flush();
                },
                s => json.Deserialize(new BsonReader(s, rootArray, DateTimeKind.Utc), root),
                items =>
                {
                    if (!spec.User)
                        return;
                    foreach (object item in items)
                        UserTypes.RequireBsonCanon(spec.Canonical(item), "$");
                });
        }
    }
}
