using System.Runtime.Serialization.Json;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// DataContractJsonSerializer through XmlDictionaryWriter.CreateBinaryWriter, the seed's
    /// "DataContractJsonSerializer (binary)": the serializer's JSON mapping (a "root" element,
    /// "type" attributes, dates as "/Date(ms)/" strings) written as .NET Binary XML
    /// ([MC-NBFX], no dictionary) instead of JSON text.
    /// </summary>
    public sealed class DataContractJsonBinary : Serializer
    {
        public override string Name { get { return "datacontractjsonserializer-binary"; } }
        public override string Format { get { return "nbfx"; } }
        public override string Library { get { return "DataContractJsonSerializer + XmlDictionaryWriter.CreateBinaryWriter"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(DataContractJsonSerializer)); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-ordinal", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return BinaryXml.Codec(new DataContractJsonSerializer(spec.RootType, spec.Typed.KnownTypes));
        }
    }
}
