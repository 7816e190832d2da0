using System.Runtime.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>DataContractSerializer writing text XML (UTF-8), the seed's "DataContractSerializer (XML)".</summary>
    public sealed class DataContractXml : Serializer
    {
        public override string Name { get { return "datacontractserializer"; } }
        public override string Format { get { return "xml"; } }
        public override string Library { get { return "DataContractSerializer"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(DataContractSerializer)); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-name", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            var d = new DataContractSerializer(spec.RootType, spec.Typed.KnownTypes);
            return new StreamCodec((o, s) => d.WriteObject(s, o), s => d.ReadObject(s));
        }
    }
}
