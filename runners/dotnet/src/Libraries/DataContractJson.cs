using System.Runtime.Serialization.Json;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>DataContractJsonSerializer (UTF-8 JSON; dates as "\/Date(ms)\/", maps as Key/Value arrays).</summary>
    public sealed class DataContractJson : Serializer
    {
        public override string Name { get { return "datacontractjsonserializer"; } }
        public override string Format { get { return "json"; } }
        public override string Library { get { return "DataContractJsonSerializer"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(DataContractJsonSerializer)); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-ordinal", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            var d = new DataContractJsonSerializer(spec.RootType, spec.Typed.KnownTypes);
            return new StreamCodec((o, s) => d.WriteObject(s, o), s => d.ReadObject(s));
        }
    }
}
