using System;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Linq;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// Json.NET's BsonWriter/BsonReader with the LINQ to JSON API on user datasets: the JToken
    /// tree written with JToken.WriteTo, read back with JToken.ReadFrom; bytes as BSON binary,
    /// timestamps as BSON UTC datetimes, a root list as a document keyed "0", "1", ....
    /// Built-in datasets run on the typed row, `json.net-bson`.
    /// </summary>
    public sealed class JsonNetBsonDynamic : Serializer
    {
        public override string Name { get { return "json.net-bson-dynamic"; } }
        public override string Format { get { return "bson"; } }
        public override string Library { get { return "Json.NET BSON (Newtonsoft.Json.Bson)"; } }
        public override string Version { get { return Describe.AssemblyVersion(typeof(JsonConvert).Assembly); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "dynamic", "copying-decode", "map-layout", "enum-as-ordinal", "root-list-document" }; } }
        public override string[] Assemblies { get { return new[] { typeof(JsonConvert).Assembly.Location }; } }

        public override bool GenericTree { get { return true; } }

        public override string NotApplicable(DatasetSpec spec)
        {
            return spec.User ? null : JsonNetDynamic.BuiltinReason("json.net-bson");
        }

        public override Codec Bind(DatasetSpec spec)
        {
            if (!spec.User)
                throw new NotApplicableException(JsonNetDynamic.BuiltinReason("json.net-bson"));
            bool rootArray = spec.Types.RootIsList(spec.TypeExpr);
            return new StreamCodec(
                (o, s) =>
                {
                    var w = new BsonWriter(s) { DateTimeKindHandling = DateTimeKind.Utc };
                    ((JToken)o).WriteTo(w);
                    w.Flush();
                },
                s => JToken.ReadFrom(new BsonReader(s, rootArray, DateTimeKind.Utc)),
                items =>
                {
                    foreach (object item in items)
                        UserTypes.RequireBson((JToken)item, "$");
                });
        }
    }
}
